# What `cmake --install` puts under the prefix, and what the Debian package holds:
#   bin/tilescope
#   share/tilescope/{shaders,assets,kernels}  read at run time; the program finds them as
#                                          <its folder>/../share/tilescope (app/platform/data_dirs.h),
#                                          so the tree can be installed or copied to any prefix
#   share/doc/tilescope/                   README.md, docs/*.md and the screenshots they show
#   share/man/man1/tilescope.1
#   share/applications, share/metainfo, share/icons/hicolor   the desktop entry, its AppStream
#                                          metadata and icon (window builds only)
# bin/ and share/tilescope/ are fixed names (not GNUInstallDirs' variables): the program's
# lookup depends on their relative position.
set(TILESCOPE_APP_ID io.github.tilescope.Tilescope)

install(TARGETS tilescope RUNTIME DESTINATION bin)
# The kernel texts with every header they include, under share/tilescope/kernels/ as in the
# repository: the Source view shows them and NVRTC compiles them at run time with
# share/tilescope/ as its include folder (kernels/jit/kernel_source.h). All of kernels/' headers
# go, so that no include a kernel text gains can be missing from the package.
install(DIRECTORY kernels/ DESTINATION share/tilescope/kernels FILES_MATCHING PATTERN "*.cuh" PATTERN "*.h")
install(FILES packaging/man/tilescope.1 DESTINATION share/man/man1)

# The documentation keeps the repository's layout, so that the links between files and the
# README's pictures work in the installed copy. Only the screenshots the pages show are taken.
install(FILES README.md DESTINATION share/doc/tilescope)
file(GLOB _tilescope_doc_pages CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${_tilescope_doc_pages} DESTINATION share/doc/tilescope/docs)
set(_tilescope_shown_images)
foreach(_page ${PROJECT_SOURCE_DIR}/README.md ${_tilescope_doc_pages})
  file(READ ${_page} _text)
  string(REGEX MATCHALL "screenshots/[A-Za-z0-9_.-]+\\.png" _images "${_text}")
  list(APPEND _tilescope_shown_images ${_images})
endforeach()
list(REMOVE_DUPLICATES _tilescope_shown_images)
foreach(_image ${_tilescope_shown_images})
  if(EXISTS ${PROJECT_SOURCE_DIR}/docs/${_image})
    install(FILES docs/${_image} DESTINATION share/doc/tilescope/docs/screenshots)
  endif()
endforeach()
# A changed page may show other pictures: configure again when one changes.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/README.md ${_tilescope_doc_pages})

if(TILESCOPE_GUI)
  install(DIRECTORY shaders/ DESTINATION share/tilescope/shaders)
  install(DIRECTORY assets/ DESTINATION share/tilescope/assets)
  install(FILES packaging/${TILESCOPE_APP_ID}.desktop DESTINATION share/applications)
  install(FILES packaging/${TILESCOPE_APP_ID}.metainfo.xml DESTINATION share/metainfo)
  install(FILES packaging/icons/${TILESCOPE_APP_ID}.svg DESTINATION share/icons/hicolor/scalable/apps)
  foreach(_size 16 24 32 48 64 128 256)
    install(FILES packaging/icons/hicolor/${_size}x${_size}/apps/${TILESCOPE_APP_ID}.png
            DESTINATION share/icons/hicolor/${_size}x${_size}/apps)
  endforeach()
endif()
