// Private: what cuda-bh needs of the other ranks when it runs over several (issue 47): host
// reductions and one exchange of device bytes a pass. The engine knows no MPI: orrery_distributed
// implements this over MPI (control) and NCCL (the device bytes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "orrery/gpu_buffer.h"
#include "orrery/solver.h"

namespace orrery {

// Bytes for one rank: a small header over the host's channel, the rest device to device. The
// last `tail` bytes (a multiple of 16) land apart from the rest, beside the other ranks' tails.
struct DeviceParcel {
  std::vector<std::uint8_t> header;
  const void* data = nullptr;  // device memory
  std::size_t bytes = 0, tail = 0;
};

// What one rank sent this one: its header, and where its device bytes landed: the head (`bytes`,
// all but the tail) at `offset`, the `tail` at `tail_offset`.
struct ReceivedParcel {
  std::vector<std::uint8_t> header;
  std::size_t offset = 0, bytes = 0, tail_offset = 0, tail = 0;
};

// Where received parcels start: cudaMalloc's alignment (256) and an essential tree node's size
// (96) both divide it, so the trees are walked where they land.
constexpr std::size_t k_parcel_align = 768;

class TreeExchange {
 public:
  virtual ~TreeExchange() = default;
  virtual int rank() const = 0;
  virtual int ranks() const = 0;
  // Element-wise over the ranks, in place (collective).
  virtual void sum(double* v, int n, const char* what) = 0;
  virtual void max(double* v, int n, const char* what) = 0;
  // Every rank's `n` floats, by rank (collective).
  virtual std::vector<float> gather(const float* mine, int n, const char* what) = 0;
  // send[r] to rank r (this rank's own is ignored); the device bytes received go to `into`
  // (grown as needed, its contents not kept) after its first `front` bytes: each rank's head at
  // a multiple of k_parcel_align, then, after every head and from such a multiple on, the tails
  // one after another. Collective; returns when every byte has arrived.
  virtual std::vector<ReceivedParcel> exchange(const std::vector<DeviceParcel>& send,
                                               GpuBuffer<unsigned char>& into, std::size_t front,
                                               const char* what) = 0;
};

// cuda-bh whose every force pass adds the other ranks' locally essential trees (cuda_bh.cu).
std::unique_ptr<Solver> make_cuda_bh_over(std::unique_ptr<TreeExchange> exchange);
// Each body's interactions on the solver's last force pass, by body (a solver of
// make_cuda_bh_over; waits for the device).
std::vector<float> cuda_bh_work(const Solver& s);
// Bytes of essential trees received on the last pass.
std::size_t cuda_bh_received_bytes(const Solver& s);
// The bodies were moved between ranks: the next pass learns their accelerations afresh.
void cuda_bh_forget(Solver& s);

}  // namespace orrery
