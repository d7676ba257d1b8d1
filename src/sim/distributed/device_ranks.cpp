// cuda-bh over MPI ranks (orrery/distributed.h): one GPU a rank, the essential trees sent GPU to
// GPU over NCCL and the rest (boxes, sizes, sums) over MPI.
#include <cstring>
#include <stdexcept>
#include <string>

#include "orrery/device.h"
#include "orrery/distributed.h"
#include "orrery/input.h"

#ifdef ORRERY_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "../gravity/nccl_library.h"
#include "../gravity/tree_exchange.h"
#endif

namespace orrery {

#ifdef ORRERY_HAVE_CUDA
namespace {

// The ranks as cuda-bh sees them: MPI for the host's side, one NCCL communicator over the ranks'
// GPUs for the device bytes.
class NcclExchange final : public TreeExchange {
 public:
  explicit NcclExchange(Ranks& ranks) : m_ranks(ranks) {
    const NcclLibrary& lib = nccl();
    ncclUniqueId id{};
    if (ranks.rank() == 0) nccl_check(lib.get_unique_id(&id), "ncclGetUniqueId");
    std::vector<std::uint8_t> mine;
    if (ranks.rank() == 0)
      mine.assign(reinterpret_cast<const std::uint8_t*>(&id),
                  reinterpret_cast<const std::uint8_t*>(&id) + sizeof id);
    const auto all = ranks.gather_all(mine, "NCCL's address");
    if (all.empty() || all[0].size() != sizeof id)
      ranks.abort("rank 0 sent no NCCL address (ranks of different builds?)", 3);
    std::memcpy(&id, all[0].data(), sizeof id);
    if (cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking) != cudaSuccess)
      ranks.abort("could not make a CUDA stream for NCCL", 3);
    ncclResult_t r = ncclSuccess;
    ranks.guarded("joining NCCL's communicator",
                  [&] { r = lib.comm_init_rank(&m_comm, ranks.size(), id, ranks.rank()); });
    if (r != ncclSuccess)
      ranks.abort(
          std::string("this rank cannot reach the others over NCCL: ") + lib.error_string(r), 3);
  }
  ~NcclExchange() override {
    if (m_comm) nccl().comm_destroy(m_comm);
    if (m_stream) cudaStreamDestroy(m_stream);
  }
  int rank() const override { return m_ranks.rank(); }
  int ranks() const override { return m_ranks.size(); }
  void sum(double* v, int n, const char* what) override { m_ranks.sum(v, n, what); }
  void max(double* v, int n, const char* what) override { m_ranks.max(v, n, what); }
  std::vector<float> gather(const float* mine, int n, const char* what) override {
    std::vector<std::uint8_t> bytes(sizeof(float) * static_cast<std::size_t>(n));
    std::memcpy(bytes.data(), mine, bytes.size());
    std::vector<float> out(static_cast<std::size_t>(n) * static_cast<std::size_t>(ranks()));
    const auto all = m_ranks.gather_all(bytes, what);
    for (std::size_t r = 0; r < all.size(); ++r) {
      if (all[r].size() != bytes.size())
        m_ranks.abort(std::string(what) + ": a rank sent another size", 3);
      std::memcpy(out.data() + r * static_cast<std::size_t>(n), all[r].data(), bytes.size());
    }
    return out;
  }
  std::vector<ReceivedParcel> exchange(const std::vector<DeviceParcel>& send,
                                       GpuBuffer<unsigned char>& into, std::size_t front,
                                       const char* what) override {
    const int p = ranks();
    // Sizes and headers over MPI: [head bytes (8)][tail bytes (8)][header].
    std::uint64_t sizes[2] = {0, 0};
    std::vector<std::vector<std::uint8_t>> heads(static_cast<std::size_t>(p));
    for (int r = 0; r < p; ++r) {
      const DeviceParcel& d = send[static_cast<std::size_t>(r)];
      std::vector<std::uint8_t>& h = heads[static_cast<std::size_t>(r)];
      if (r == rank() || (d.bytes == 0 && d.header.empty())) continue;
      if (d.tail > d.bytes || d.tail % 16 != 0)
        m_ranks.abort(std::string(what) + ": a parcel's tail is not 16-byte bodies of it", 3);
      sizes[0] = d.bytes - d.tail, sizes[1] = d.tail;
      h.resize(sizeof sizes + d.header.size());
      std::memcpy(h.data(), sizes, sizeof sizes);
      if (!d.header.empty()) std::memcpy(h.data() + sizeof sizes, d.header.data(), d.header.size());
    }
    const auto got = m_ranks.exchange(std::move(heads), what);
    std::vector<ReceivedParcel> out(static_cast<std::size_t>(p));
    auto aligned = [](std::size_t b) {
      return (b + k_parcel_align - 1) / k_parcel_align * k_parcel_align;
    };
    std::size_t total = aligned(front);
    for (int r = 0; r < p; ++r) {
      const std::vector<std::uint8_t>& h = got[static_cast<std::size_t>(r)];
      if (h.size() < sizeof sizes) continue;
      std::memcpy(sizes, h.data(), sizeof sizes);
      if (sizes[1] % 16 != 0) m_ranks.abort(std::string(what) + ": a rank sent a torn tail", 3);
      ReceivedParcel& g = out[static_cast<std::size_t>(r)];
      g.header.assign(h.begin() + sizeof sizes, h.end());
      g.offset = total, g.bytes = sizes[0], g.tail = sizes[1];
      total += aligned(g.bytes);
    }
    for (ReceivedParcel& g : out) g.tail_offset = total, total += g.tail;
    into.enlarge(std::max<std::size_t>(total, 1));
    const NcclLibrary& lib = nccl();
    ncclResult_t r = lib.group_start();
    // Between two ranks NCCL matches sends to receives in the order they are posted.
    for (int k = 0; k < p && r == ncclSuccess; ++k) {
      if (k == rank()) continue;
      const DeviceParcel& d = send[static_cast<std::size_t>(k)];
      const ReceivedParcel& g = out[static_cast<std::size_t>(k)];
      const auto* bytes = static_cast<const unsigned char*>(d.data);
      const std::size_t head = d.bytes - d.tail;
      if (head > 0) r = lib.send(bytes, head, ncclUint8, k, m_comm, m_stream);
      if (r == ncclSuccess && d.tail > 0)
        r = lib.send(bytes + head, d.tail, ncclUint8, k, m_comm, m_stream);
      if (r == ncclSuccess && g.bytes > 0)
        r = lib.recv(into.data() + g.offset, g.bytes, ncclUint8, k, m_comm, m_stream);
      if (r == ncclSuccess && g.tail > 0)
        r = lib.recv(into.data() + g.tail_offset, g.tail, ncclUint8, k, m_comm, m_stream);
    }
    const ncclResult_t end = lib.group_end();
    if (r == ncclSuccess) r = end;
    if (r != ncclSuccess)
      m_ranks.abort(std::string(what) + " over NCCL: " + lib.error_string(r), 3);
    cudaError_t c = cudaSuccess;
    m_ranks.guarded(what, [&] { c = cudaStreamSynchronize(m_stream); });
    if (c != cudaSuccess)
      m_ranks.abort(std::string(what) + " over NCCL: " + cudaGetErrorString(c), 3);
    return out;
  }

 private:
  Ranks& m_ranks;
  ncclComm_t m_comm = nullptr;
  cudaStream_t m_stream = nullptr;
};

}  // namespace

std::unique_ptr<Solver> DistributedBh::make_device(Ranks& ranks) {
  return make_cuda_bh_over(std::make_unique<NcclExchange>(ranks));
}

void DistributedBh::bind_gpus(Ranks& ranks) {
  // Each rank's verdict, then every rank's, so that all throw the same line.
  std::string why;
  const int gpus = device_count(), local = ranks.local_rank();
  std::string name;
  if (gpus < 1) {
    why = "rank " + std::to_string(ranks.rank()) + " finds no CUDA device (" +
          device_info().reason + "): cuda-bh over ranks needs a GPU a rank";
  } else if (ranks.local_size() > gpus) {
    why = std::to_string(ranks.local_size()) + " ranks on a host with " + std::to_string(gpus) +
          " GPUs: each rank needs a GPU of its own (give mpirun -np at most the GPUs of each "
          "host, or run cpu-bh)";
  } else {
    try {
      use_device(local);
      name = device_info_of(local).name;
    } catch (const std::exception& e) {
      why = "rank " + std::to_string(ranks.rank()) + " cannot take GPU " + std::to_string(local) +
            ": " + e.what();
    }
  }
  std::vector<std::uint8_t> mine(1 + why.size() + name.size() + 1);
  mine[0] = why.empty() ? 0 : 1;
  std::memcpy(mine.data() + 1, why.empty() ? name.data() : why.data(),
              why.empty() ? name.size() : why.size());
  const auto all = ranks.gather_all(mine, "the ranks' GPUs");
  std::vector<RankGpu> found(all.size());
  for (std::size_t r = 0; r < all.size(); ++r) {
    const std::vector<std::uint8_t>& a = all[r];
    if (a.empty()) throw InputError("a rank sent no GPU (ranks of different builds?)");
    (a[0] != 0 ? found[r].why : found[r].name).assign(a.begin() + 1, a.end() - 1);
  }
  check_gpus(found);
}

#else

std::unique_ptr<Solver> DistributedBh::make_device(Ranks&) {
  throw std::runtime_error("cuda-bh over ranks: this build has no CUDA");
}

void DistributedBh::bind_gpus(Ranks&) {
  throw InputError("cuda-bh over ranks: this build has no CUDA (" + device_info().reason + ")");
}

#endif

void DistributedBh::check_gpus(const std::vector<RankGpu>& gpus) {
  for (const RankGpu& g : gpus)
    if (!g.why.empty()) throw InputError(g.why);
  for (std::size_t r = 1; r < gpus.size(); ++r)
    if (gpus[r].name != gpus[0].name)
      throw InputError("the ranks' GPUs are not one model (rank 0: " + gpus[0].name + ", rank " +
                       std::to_string(r) + ": " + gpus[r].name +
                       "): cuda-bh over ranks balances them as equals; run on one model");
}

}  // namespace orrery
