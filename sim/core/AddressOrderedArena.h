#pragma once
/// Memory whose blocks come at increasing addresses, in the order they were asked for.
///
/// Why: libraries that order their objects by address make a run depend on where the heap
/// happens to put them. CGAL's triangulations hand out vertex and face handles that compare
/// by address, and CGAL::lloyd_optimize_mesh_2 walks a std::set<Vertex_handle> while it
/// moves vertices, so the panel meshes of a garment came out different when anything else
/// changed the heap's history (the thread count, the length of a path, whether stdout is a
/// terminal). Giving CGAL's containers this allocator (CGAL_ALLOCATOR, see
/// sim/geometry/CgalGeometry.cpp) makes address order equal to allocation order, a pure
/// function of the input.
///
/// How: one reservation of address space (PROT_NONE, no memory behind it), committed in
/// chunks as a bump pointer advances. Freed blocks are not reused while any block is alive;
/// when the last one is freed the region is returned to the kernel and the pointer starts
/// over, which keeps every live block's order intact. Thread-safe (one mutex).
#include <cstddef>
#include <new>

namespace hg {

/// `bytes` at an address above every block handed out since the arena was last empty.
/// Throws std::bad_alloc when the reservation (64 GiB of address space) is used up.
void* addressOrderedAllocate(std::size_t bytes, std::size_t alignment);
/// Returns a block of addressOrderedAllocate.
void addressOrderedDeallocate(void* block) noexcept;
/// Blocks alive now (for tests).
std::size_t addressOrderedLiveBlocks();

/// A standard allocator over the arena.
template <class T>
struct AddressOrderedAllocator {
  using value_type = T;
  AddressOrderedAllocator() noexcept = default;
  template <class U>
  AddressOrderedAllocator(const AddressOrderedAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n > std::size_t(-1) / sizeof(T)) throw std::bad_alloc();
    return static_cast<T*>(addressOrderedAllocate(n * sizeof(T), alignof(T)));
  }
  void deallocate(T* p, std::size_t) noexcept { addressOrderedDeallocate(p); }
  template <class U>
  bool operator==(const AddressOrderedAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace hg
