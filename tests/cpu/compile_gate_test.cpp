// The gate that limits how many compiles run at once (kernels/jit/compile_gate.h): a compile waits
// while the limit's number of wanted compiles hold a place, goes in when one leaves, and goes in at
// once when its own asker drops it; a running compile that is dropped stops counting, so a compile
// that never ends holds up nobody once it is cancelled.
#include "kernels/jit/compile_gate.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>

namespace tilescope {
namespace {

using namespace std::chrono_literals;

std::shared_ptr<std::atomic<bool>> flag() {
  return std::make_shared<std::atomic<bool>>(false);
}

// Enters on a thread of its own; the future is ready once it holds a place.
std::future<CompileGate::Place> enter_async(CompileGate& gate, const CompileDropped& dropped) {
  return std::async(std::launch::async, [&gate, dropped] { return gate.enter(dropped); });
}

TEST(CompileGate, WaitsWhileTheLimitIsHeldAndGoesInWhenOneLeaves) {
  CompileGate gate;
  gate.set_limit(1);
  const CompileGate::Place first = gate.enter(nullptr);
  std::future<CompileGate::Place> second = enter_async(gate, nullptr);
  EXPECT_EQ(second.wait_for(200ms), std::future_status::timeout) << "one at a time";
  gate.leave(first);
  ASSERT_EQ(second.wait_for(5s), std::future_status::ready);
  EXPECT_EQ(gate.wanted_running(), 1);
  gate.leave(second.get());
  EXPECT_EQ(gate.wanted_running(), 0);
}

TEST(CompileGate, ARunningCompileThatIsDroppedNoLongerHoldsUpTheNext) {
  CompileGate gate;
  gate.set_limit(1);
  const auto hung = flag();
  const CompileGate::Place first = gate.enter(hung);  // a compile that will not end soon
  std::future<CompileGate::Place> second = enter_async(gate, nullptr);
  EXPECT_EQ(second.wait_for(200ms), std::future_status::timeout);
  *hung = true;  // its asker cancels it; it still runs
  ASSERT_EQ(second.wait_for(5s), std::future_status::ready) << "the dropped compile must not count";
  EXPECT_EQ(gate.wanted_running(), 1);
  gate.leave(second.get());
  gate.leave(first);
}

TEST(CompileGate, AWaitingCompileThatIsDroppedGoesInAtOnceToSkipItsWork) {
  CompileGate gate;
  gate.set_limit(1);
  const CompileGate::Place first = gate.enter(nullptr);
  const auto unwanted = flag();
  std::future<CompileGate::Place> second = enter_async(gate, unwanted);
  EXPECT_EQ(second.wait_for(200ms), std::future_status::timeout);
  *unwanted = true;
  ASSERT_EQ(second.wait_for(5s), std::future_status::ready);
  gate.leave(second.get());
  gate.leave(first);
}

TEST(CompileGate, NoLimitLetsEveryoneIn) {
  CompileGate gate;
  const CompileGate::Place a = gate.enter(nullptr), b = gate.enter(nullptr), c = gate.enter(nullptr);
  EXPECT_EQ(gate.wanted_running(), 3);
  gate.set_limit(2);  // lowered while three run: the next waits until one leaves
  std::future<CompileGate::Place> d = enter_async(gate, nullptr);
  EXPECT_EQ(d.wait_for(200ms), std::future_status::timeout);
  gate.leave(a);
  EXPECT_EQ(d.wait_for(200ms), std::future_status::timeout) << "still two running";
  gate.leave(b);
  ASSERT_EQ(d.wait_for(5s), std::future_status::ready);
  gate.leave(c);
  gate.leave(d.get());
}

}  // namespace
}  // namespace tilescope
