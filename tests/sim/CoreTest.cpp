// sim/core utilities: the address-ordered arena.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/AddressOrderedArena.h"

namespace hg {
namespace {

TEST(AddressOrderedArena, BlocksComeAtIncreasingAddressesAndTheArenaStartsOverWhenEmpty) {
  ASSERT_EQ(addressOrderedLiveBlocks(), 0u);
  AddressOrderedAllocator<double> doubles;
  double* anchor = doubles.allocate(1);  // alive throughout: the arena is never empty below
  std::vector<double*> blocks;
  std::uintptr_t previous = reinterpret_cast<std::uintptr_t>(anchor);
  for (std::size_t i = 0; i < 200; ++i) {
    double* block = doubles.allocate(1 + (i * 37) % 500);
    const auto address = reinterpret_cast<std::uintptr_t>(block);
    EXPECT_GT(address, previous) << "block " << i;
    EXPECT_EQ(address % alignof(double), 0u);
    block[0] = double(i);  // writable
    previous = address;
    blocks.push_back(block);
    if (i % 3 == 0) {  // freeing some does not hand their space out again while others live
      doubles.deallocate(blocks.front(), 1);
      blocks.erase(blocks.begin());
    }
  }
  EXPECT_EQ(addressOrderedLiveBlocks(), blocks.size() + 1);
  for (double* block : blocks) doubles.deallocate(block, 1);
  doubles.deallocate(anchor, 1);
  EXPECT_EQ(addressOrderedLiveBlocks(), 0u);
  double* again = doubles.allocate(4);
  EXPECT_EQ(again, anchor) << "the emptied arena starts over";
  again[3] = 1.0;
  doubles.deallocate(again, 4);
}

TEST(AddressOrderedArena, AHugeRequestIsBadAlloc) {
  AddressOrderedAllocator<char> chars;
  EXPECT_THROW((void)chars.allocate(std::size_t(1) << 40), std::bad_alloc);
  EXPECT_EQ(addressOrderedLiveBlocks(), 0u);
}

}  // namespace
}  // namespace hg
