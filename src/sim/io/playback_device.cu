// The motion between two outputs on the device (orrery/playback.h): the same Hermite basis as
// hermite_between, one body a thread, in double for the basis and float for the bodies; and
// DevicePlayback, which uploads outputs on a thread and a stream of its own.
#include <algorithm>
#include <cstring>

#include "../backend/cuda_handles.cuh"
#include "orrery/cuda_check.cuh"
#include "orrery/gpu_buffer.h"
#include "orrery/playback.h"

namespace orrery {
namespace {

__global__ void hermite_kernel(const Vec4* __restrict__ a_pos, const Vec4* __restrict__ a_vel,
                               const Vec4* __restrict__ b_pos, const Vec4* __restrict__ b_vel,
                               const int* __restrict__ b_of_a, int n, double h, double s,
                               Vec4* __restrict__ out_pos, Vec4* __restrict__ out_vel) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Vec4 p0 = a_pos[i], v0 = a_vel[i];
  const int j = b_pos ? (b_of_a ? b_of_a[i] : i) : -1;
  if (j < 0) {  // nothing to move towards
    out_pos[i] = p0, out_vel[i] = v0;
    return;
  }
  const Vec4 p1 = b_pos[j], v1 = b_vel[j];
  const double s2 = s * s, s3 = s2 * s;
  const double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2,
               h11 = s3 - s2;
  const double d00 = 6 * s2 - 6 * s, d10 = 3 * s2 - 4 * s + 1, d01 = -d00, d11 = 3 * s2 - 2 * s;
  auto at = [&](float x0, float u0, float x1, float u1, float& x, float& u) {
    x = static_cast<float>(h00 * x0 + h10 * h * u0 + h01 * x1 + h11 * h * u1);
    u = static_cast<float>((d00 * x0 + d01 * x1) / h + d10 * u0 + d11 * u1);
  };
  Vec4 p = p0, v = v0;
  at(p0.x, v0.x, p1.x, v1.x, p.x, v.x);
  at(p0.y, v0.y, p1.y, v1.y, p.y, v.y);
  at(p0.z, v0.z, p1.z, v1.z, p.z, v.z);
  out_pos[i] = p, out_vel[i] = v;
}

}  // namespace

void hermite_between_device(const Vec4* a_pos, const Vec4* a_vel, const Vec4* b_pos,
                            const Vec4* b_vel, const int* b_of_a, int n, double ta, double tb,
                            double t, Vec4* out_pos, Vec4* out_vel) {
  if (n <= 0) return;
  const double h = tb - ta;
  const bool moves = b_pos && h > 0;
  const double s = moves ? fmin(fmax((t - ta) / h, 0.0), 1.0) : 0.0;
  constexpr int threads = 256;
  hermite_kernel<<<(n + threads - 1) / threads, threads>>>(
      a_pos, a_vel, moves ? b_pos : nullptr, b_vel, b_of_a, n, h, s, out_pos, out_vel);
  CUDA_CHECK_LAUNCH("hermite_kernel");
}

struct DevicePlayback::Impl {
  struct Held {  // an output on the device
    Frame frame;
    GpuBuffer<Vec4> pos, vel;
  };
  struct Matching {  // b_of_a of a pair on the device (none where every body is itself)
    Frame a, b;
    GpuBuffer<int> map;
    bool identity = false, failed = false;
  };
  // A task for the thread: an output into a slot, or a pair's matching.
  struct Task {
    int held = -1, matching = -1;
    Frame a, b;
  };

  int device = 0;
  std::mutex mutex;
  std::condition_variable wake, done;
  Held held[3];
  Matching matchings[2];
  int busy_held = -1, busy_matching = -1;  // what the thread writes now
  Frame want_a, want_b, want_next;         // what the frame asks for
  Frame use_a, use_b;                      // the pair move() reads (kept)
  int ready_a = -1, ready_b = -1, ready_matching = -1;
  std::vector<std::pair<int, std::string>> unmatched;
  std::string failure;
  bool stop = false;
  CudaStream stream{cudaStreamNonBlocking};
  CudaEvent used{cudaEventDisableTiming};  // recorded after each move(): what a copy waits for
  std::thread thread;

  int held_slot(const Frame& f) const {
    for (int k = 0; k < 3; ++k)
      if (f && held[k].frame == f && busy_held != k) return k;
    return -1;
  }
  int matching_slot(const Frame& a, const Frame& b) const {
    for (int k = 0; k < 2; ++k)
      if (a && b && matchings[k].a == a && matchings[k].b == b && busy_matching != k) return k;
    return -1;
  }
  bool kept(const Frame& f, bool with_next) const {
    return f && (f == want_a || f == want_b || f == use_a || f == use_b ||
                 (with_next && f == want_next));
  }
  // Under the mutex, on the thread between its tasks (nothing busy): the most urgent task (the
  // pair asked for, its matching, then the next output and its matching with the pair's later
  // output), or none.
  Task next_task() const {
    Task t;
    const Frame outputs[3] = {want_a, want_b, want_next};
    for (int i = 0; i < 3; ++i) {
      const Frame& f = outputs[i];
      if (!f || held_slot(f) >= 0) continue;
      for (int k = 0; k < 3; ++k)  // a slot that holds nothing kept
        if (!kept(held[k].frame, true)) {
          t.held = k, t.a = f;
          return t;
        }
    }
    const Frame later = want_b ? want_b : want_a;
    const std::pair<Frame, Frame> pairs[2] = {{want_a, want_b}, {later, want_next}};
    for (const auto& [a, b] : pairs) {
      if (!a || !b || held_slot(a) < 0 || held_slot(b) < 0 || matching_slot(a, b) >= 0) continue;
      for (int k = 0; k < 2; ++k) {
        const Matching& m = matchings[k];
        const bool in_use = (m.a == use_a && m.b == use_b) || (m.a == want_a && m.b == want_b);
        if (!m.a || !in_use) {
          t.matching = k, t.a = a, t.b = b;
          return t;
        }
      }
    }
    return t;
  }

  // A copy from pageable memory holds the driver while it stages the bytes, and the frame's own
  // CUDA calls (the GL buffers' mapping) waited behind a 512 MB one. So the bytes go through two
  // pinned halves: this thread fills one while the engine copies the other.
  static constexpr std::size_t k_stage_bytes = 8u << 20;
  PinnedHost<unsigned char> stage[2];
  CudaEvent staged[2];

  template <class T>
  void upload(GpuBuffer<T>& d, const std::vector<T>& v) {
    d.enlarge(v.size());
    if (!stage[0].get()) {
      for (int h = 0; h < 2; ++h) {
        stage[h] = PinnedHost<unsigned char>(k_stage_bytes);
        staged[h] = CudaEvent(cudaEventDisableTiming);
      }
    }
    const auto* src = reinterpret_cast<const unsigned char*>(v.data());
    auto* dst = reinterpret_cast<unsigned char*>(d.data());
    const std::size_t bytes = v.size() * sizeof(T);
    for (std::size_t at = 0, h = 0; at < bytes; at += k_stage_bytes, h ^= 1) {
      const std::size_t n = std::min(k_stage_bytes, bytes - at);
      CUDA_CHECK_THROW(cudaEventSynchronize(staged[h].get()));  // its last copy is done
      std::memcpy(stage[h].get(), src + at, n);
      CUDA_CHECK_THROW(
          cudaMemcpyAsync(dst + at, stage[h].get(), n, cudaMemcpyHostToDevice, stream.get()));
      CUDA_CHECK_THROW(cudaEventRecord(staged[h].get(), stream.get()));
    }
  }

  void run() {
    cudaSetDevice(device);
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      Task t;
      wake.wait(lock, [&] { return stop || (t = next_task()).held >= 0 || t.matching >= 0; });
      if (stop) return;
      if (t.held >= 0) {
        busy_held = t.held;
        held[t.held].frame.reset();
      } else {
        busy_matching = t.matching;
        Matching& m = matchings[t.matching];
        m.a.reset(), m.b.reset();  // its device array is kept: a new one would be a cudaFree
      }
      lock.unlock();
      std::string failed, unmatched_why;
      bool identity = false;
      try {
        // Wait for the moves queued before: the slot may be one they read.
        CUDA_CHECK_THROW(cudaStreamWaitEvent(stream.get(), used.get(), 0));
        if (t.held >= 0) {
          upload(held[t.held].pos, t.a->bodies.pos);
          upload(held[t.held].vel, t.a->bodies.vel);
        } else {
          std::vector<int> map;
          try {
            map = match_bodies(*t.a, *t.b);
          } catch (const InputError& e) {
            unmatched_why = e.what();
          }
          identity = map.empty();
          upload(matchings[t.matching].map, map);
        }
        CUDA_CHECK_THROW(cudaStreamSynchronize(stream.get()));
      } catch (const std::exception& e) {
        failed = e.what();
      }
      lock.lock();
      if (t.held >= 0) {
        busy_held = -1;
        if (failed.empty()) held[t.held].frame = t.a;
      } else {
        busy_matching = -1;
        Matching& m = matchings[t.matching];
        if (failed.empty()) {
          m.a = t.a, m.b = t.b, m.identity = identity, m.failed = !unmatched_why.empty();
          if (m.failed) unmatched.emplace_back(t.b->index, unmatched_why);
        }
      }
      if (!failed.empty() && failure.empty()) failure = "uploading an output: " + failed;
      done.notify_all();
      if (!failure.empty()) return;
    }
  }

  // Under the mutex: whether the pair asked for is ready; sets what move() reads.
  bool check(const Frame& a, const Frame& b) {
    const int ka = held_slot(a);
    int kb = b ? held_slot(b) : -1;
    if (ka < 0 || (b && kb < 0)) return false;
    int km = -1;
    if (b) {
      km = matching_slot(a, b);
      if (km < 0) return false;
      if (matchings[km].failed) kb = -1, km = -1;
    }
    ready_a = ka, ready_b = kb, ready_matching = km;
    return true;
  }
};

DevicePlayback::DevicePlayback() : m(std::make_unique<Impl>()) {
  CUDA_CHECK_THROW(cudaGetDevice(&m->device));
  m->thread = std::thread([this] { m->run(); });
}

DevicePlayback::~DevicePlayback() {
  {
    std::lock_guard<std::mutex> lock(m->mutex);
    m->stop = true;
  }
  m->wake.notify_all();
  m->thread.join();
}

bool DevicePlayback::ready(const Frame& a, const Frame& b, const Frame& next, bool wait) {
  std::unique_lock<std::mutex> lock(m->mutex);
  if (!m->failure.empty()) throw std::runtime_error(m->failure);
  if (!a) return false;
  m->want_a = a, m->want_b = b, m->want_next = next;
  if (m->check(a, b)) {
    m->use_a = a, m->use_b = b;
    m->wake.notify_all();  // the next output, ahead
    return true;
  }
  m->use_a.reset(), m->use_b.reset();  // no move() until this pair is ready: theirs may go
  m->ready_a = -1;
  m->wake.notify_all();
  if (!wait) return false;
  m->done.wait(lock, [&] { return !m->failure.empty() || m->check(a, b); });
  if (!m->failure.empty()) throw std::runtime_error(m->failure);
  m->use_a = a, m->use_b = b;
  m->wake.notify_all();
  return true;
}

void DevicePlayback::move(double t, Vec4* out_pos, Vec4* out_vel) {
  std::lock_guard<std::mutex> lock(m->mutex);
  if (m->ready_a < 0) throw std::logic_error("DevicePlayback::move before ready()");
  const Impl::Held& a = m->held[m->ready_a];
  const Impl::Held* b = m->ready_b >= 0 ? &m->held[m->ready_b] : nullptr;
  const Impl::Matching* match = m->ready_matching >= 0 ? &m->matchings[m->ready_matching] : nullptr;
  hermite_between_device(a.pos.data(), a.vel.data(), b ? b->pos.data() : nullptr,
                         b ? b->vel.data() : nullptr,
                         match && !match->identity ? match->map.data() : nullptr,
                         static_cast<int>(a.frame->bodies.pos.size()), a.frame->time,
                         b ? b->frame->time : a.frame->time, t, out_pos, out_vel);
  CUDA_CHECK_THROW(cudaEventRecord(m->used.get(), 0));
}

std::vector<std::pair<int, std::string>> DevicePlayback::take_unmatched() {
  std::lock_guard<std::mutex> lock(m->mutex);
  std::vector<std::pair<int, std::string>> out;
  out.swap(m->unmatched);
  return out;
}

}  // namespace orrery
