#include "sim/core/AddressOrderedArena.h"

#include <sys/mman.h>

#include <cstdint>
#include <mutex>

namespace hg {
namespace {

constexpr std::size_t kReservation = std::size_t(64) << 30;  // bytes of address space
constexpr std::size_t kCommitChunk = std::size_t(16) << 20;  // bytes made usable at a time

struct Arena {
  std::mutex mutex;
  char* base = nullptr;
  std::size_t committed = 0;  // bytes from base that are readable and writable
  std::size_t used = 0;       // bytes from base handed out since the arena was last empty
  std::size_t live = 0;       // blocks not yet freed
};

Arena& arena() {
  static Arena* instance = new Arena;  // never destroyed: blocks may be freed during static destruction
  return *instance;
}

}  // namespace

void* addressOrderedAllocate(std::size_t bytes, std::size_t alignment) {
  Arena& a = arena();
  std::lock_guard lock(a.mutex);
  if (!a.base) {
    void* region = mmap(nullptr, kReservation, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (region == MAP_FAILED) throw std::bad_alloc();
    a.base = static_cast<char*>(region);
  }
  alignment = alignment < alignof(std::max_align_t) ? alignof(std::max_align_t) : alignment;
  const std::size_t start = (a.used + alignment - 1) / alignment * alignment;
  if (bytes > kReservation || start > kReservation - bytes) throw std::bad_alloc();
  const std::size_t end = start + bytes;
  if (end > a.committed) {
    const std::size_t target = (end + kCommitChunk - 1) / kCommitChunk * kCommitChunk;
    if (mprotect(a.base + a.committed, target - a.committed, PROT_READ | PROT_WRITE) != 0) throw std::bad_alloc();
    a.committed = target;
  }
  a.used = end;
  ++a.live;
  return a.base + start;
}

void addressOrderedDeallocate(void* block) noexcept {
  if (!block) return;
  Arena& a = arena();
  std::lock_guard lock(a.mutex);
  if (--a.live > 0) return;
  // Empty: give the pages back (they read as zeros when touched again) and start over.
  madvise(a.base, a.committed, MADV_DONTNEED);
  a.used = 0;
}

std::size_t addressOrderedLiveBlocks() {
  Arena& a = arena();
  std::lock_guard lock(a.mutex);
  return a.live;
}

}  // namespace hg
