# CMake glue for the system packages tilescope builds against. No third-party source lives in
# this repository: every dependency is a Debian 12 package (scripts/install-deps.sh installs them).
find_package(Threads REQUIRED)

# nlohmann-json3-dev 3.11 (JSON export of benchmark results).
find_package(nlohmann_json 3.10 REQUIRED)

if(TILESCOPE_BUILD_TESTS)
  # libgtest-dev 1.12 ships compiled libraries and a CMake package.
  find_package(GTest 1.10 REQUIRED)
  include(GoogleTest)
endif()
