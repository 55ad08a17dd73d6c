// IndexRing: indices stay the items' own across growth and wrap-around, and
// a retired item is let go at once.
#include "netlink/index_ring.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace brisk::netlink::detail {
namespace {

TEST(IndexRing, IndicesSurviveGrowthAndWrapAround) {
  IndexRing<std::string> ring;
  std::size_t next_retired = 0;
  // Pushes outpace retirements, so the ring grows while its live items
  // straddle the end of its slots.
  for (std::size_t i = 0; i < 1000; ++i) {
    ASSERT_EQ(ring.push("item " + std::to_string(i)), i);
    if (i % 3 == 0) ring.retire_before(++next_retired);
    ASSERT_EQ(ring.begin(), next_retired);
    for (std::size_t k = ring.begin(); k < ring.end(); k += 97)
      ASSERT_EQ(ring[k], "item " + std::to_string(k));
  }
  EXPECT_EQ(ring.end(), 1000u);
  EXPECT_EQ(ring.live(), 1000u - next_retired);
  auto rest = ring.take();
  ASSERT_EQ(rest.size(), 1000u - next_retired);
  EXPECT_EQ(rest.front(), "item " + std::to_string(next_retired));
  EXPECT_EQ(rest.back(), "item 999");
  EXPECT_EQ(ring.live(), 0u);
  EXPECT_EQ(ring.end(), 0u);
}

TEST(IndexRing, RetiredItemsAreLetGoAndTheirSlotsReused) {
  IndexRing<std::shared_ptr<int>> ring;
  auto held = std::make_shared<int>(7);
  ring.push(held);
  ring.push(std::make_shared<int>(8));
  EXPECT_EQ(held.use_count(), 2);
  ring.retire_before(1);
  EXPECT_EQ(held.use_count(), 1) << "a retired item still held";
  EXPECT_EQ(*ring[1], 8);
  ring.retire_before(5);  // past the end: up to the end only
  EXPECT_EQ(ring.begin(), 2u);
  // A long run of pushes, each retiring the one before it.
  for (int i = 0; i < 10000; ++i) {
    std::size_t at = ring.push(std::make_shared<int>(i));
    ring.retire_before(at);
  }
  EXPECT_EQ(ring.live(), 1u);
  ring.reserve(100);
  EXPECT_EQ(*ring[ring.begin()], 9999) << "reserve keeps what is live";
}

}  // namespace
}  // namespace brisk::netlink::detail
