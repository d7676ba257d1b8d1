// The series reader and the motion between outputs (orrery/playback.h).
#include "orrery/playback.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>

namespace orrery {
namespace {

PlaybackFrame frame_of(Snapshot s, int index) {
  PlaybackFrame f;
  f.index = index;
  f.time = s.run.time;
  f.bodies.pos = std::move(s.bodies.pos);
  f.bodies.vel = std::move(s.bodies.vel);  // playback draws floats: a file's doubles are not kept
  f.types = std::move(s.types);
  f.ids = std::move(s.ids);
  put_in_id_order(f);  // a repeated ID: the output is a gap
  return f;
}

bool strictly_increasing(const std::vector<std::uint64_t>& v) {
  return std::adjacent_find(v.begin(), v.end(), std::greater_equal<std::uint64_t>()) == v.end();
}

// The indices of f's bodies in the order of their IDs; throws InputError for an ID given twice.
std::vector<int> order_by_id(const PlaybackFrame& f) {
  std::vector<int> order(f.ids.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  if (strictly_increasing(f.ids)) return order;  // Orrery's own outputs: no sort
  std::sort(order.begin(), order.end(),
            [&](int x, int y) { return f.ids[std::size_t(x)] < f.ids[std::size_t(y)]; });
  for (std::size_t k = 1; k < order.size(); ++k)
    if (f.ids[std::size_t(order[k])] == f.ids[std::size_t(order[k - 1])])
      throw InputError("output " + std::to_string(f.index) + " has ID " +
                       std::to_string(f.ids[std::size_t(order[k])]) + " twice");
  return order;
}

template <class T>
void permute(std::vector<T>& v, const std::vector<int>& order) {
  if (v.size() != order.size()) return;
  std::vector<T> out(v.size());
  for (std::size_t k = 0; k < order.size(); ++k) out[k] = v[std::size_t(order[k])];
  v.swap(out);
}

// FNV-1a over 64-bit words: the labels' key.
std::uint64_t mix(std::uint64_t h, std::uint64_t w) { return (h ^ w) * 0x100000001b3ULL; }

// Frees frames on a thread of its own: a 16M-body output is 700 MB, and giving its pages back
// takes tens of milliseconds that neither the thread that draws nor one holding a lock should
// spend. Made once and never destroyed (frames may be dropped as the process ends).
class Disposal {
 public:
  static void later(const PlaybackFrame* f) {
    static Disposal* d = new Disposal;
    {
      std::lock_guard<std::mutex> lock(d->m_mutex);
      d->m_queue.push_back(f);
    }
    d->m_wake.notify_one();
  }

 private:
  Disposal() {
    std::thread([this] {
      std::unique_lock<std::mutex> lock(m_mutex);
      for (;;) {
        m_wake.wait(lock, [&] { return !m_queue.empty(); });
        std::vector<const PlaybackFrame*> q;
        q.swap(m_queue);
        lock.unlock();
        for (const PlaybackFrame* f : q) delete f;
        lock.lock();
      }
    }).detach();
  }
  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::vector<const PlaybackFrame*> m_queue;
};

std::string time_text(double t) {
  char b[32];
  std::snprintf(b, sizeof b, "%.9g", t);
  return b;
}

}  // namespace

std::size_t PlaybackFrame::bytes() const {
  return bodies.pos.size() * sizeof(Vec4) * 2 + types.size() + ids.size() * sizeof(std::uint64_t);
}

SeriesReader::SeriesReader(std::vector<PlaybackOutput> outputs, LoadOptions options,
                           std::size_t budget, int threads)
    : m_outputs(std::move(outputs)),
      m_options(std::move(options)),
      m_budget(budget),
      m_slots(m_outputs.size()),
      m_reading(m_outputs.size(), 0),
      m_times(m_outputs.size()) {
  m_options.progress = nullptr;  // a load on these threads reports to no one
  // A thread decodes an output of a million bodies in 50-150 ms (the file's checksum is a
  // sequential hash): outputs a second grow with the threads, up to the disk's pace.
  if (threads <= 0)
    threads = std::clamp(static_cast<int>(std::thread::hardware_concurrency()) / 2, 2, 8);
  for (int k = 0; k < threads; ++k) m_threads.emplace_back([this] { run(); });
}

SeriesReader::~SeriesReader() {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stop = true;
  }
  m_wake.notify_all();
  for (std::thread& t : m_threads) t.join();
}

void SeriesReader::aim(int at, int direction) {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_at = std::clamp(at, 0, std::max(size() - 1, 0));
    m_direction = direction > 0 ? 1 : direction < 0 ? -1 : 0;
    evict();
  }
  m_wake.notify_all();
}

PlaybackSlot SeriesReader::slot(int k) const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return judged(k);
}

PlaybackSlot SeriesReader::wait(int k) {
  std::unique_lock<std::mutex> lock(m_mutex);
  const std::size_t i = static_cast<std::size_t>(k);
  m_wanted = k;
  m_wake.notify_all();
  m_read.wait(lock, [&] { return m_slots[i].done() || m_stop; });
  m_wanted = -1;
  return judged(k);
}

std::optional<double> SeriesReader::time(int k) const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_times[static_cast<std::size_t>(k)];
}

std::size_t SeriesReader::held_bytes() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_held;
}

// What to read next: an output a caller waits for, the one played, the next in play's direction
// (both always), then on ahead while a frame of the size read so far fits the budget.
int SeriesReader::next_to_read() const {
  auto pending = [&](int k) {
    return k >= 0 && k < size() && !m_slots[std::size_t(k)].done() && !m_reading[std::size_t(k)];
  };
  if (pending(m_wanted)) return m_wanted;
  if (pending(m_at)) return m_at;
  const int step = m_direction != 0 ? m_direction : 1;
  if (pending(m_at + step)) return m_at + step;
  if (m_direction == 0 && pending(m_at - 1)) return m_at - 1;
  std::size_t frame = 0, frames = 0, reading = 0;
  for (const PlaybackSlot& s : m_slots)
    if (s.frame) frame += s.frame->bytes(), ++frames;
  for (char r : m_reading) reading += r;
  if (frames == 0) return -1;  // ahead only once a frame's size is known
  frame /= frames;
  std::size_t room = m_held + reading * frame;  // what the reads in flight will hold
  for (int k = m_at + step; k >= 0 && k < size(); k += step) {
    if (m_slots[std::size_t(k)].frame) continue;  // held already (or a gap: nothing to hold)
    if (room + frame > m_budget) return -1;
    if (pending(k)) return k;
    room += frame;
  }
  return -1;
}

// Drops the frames furthest behind play (then furthest ahead) until the budget holds; the output
// played and the next in play's direction stay.
void SeriesReader::evict() {
  const int step = m_direction != 0 ? m_direction : 1;
  while (m_held > m_budget) {
    int worst = -1;
    long long worst_cost = -1;
    for (int k = 0; k < size(); ++k) {
      if (!m_slots[std::size_t(k)].frame || k == m_at || k == m_at + step) continue;
      const long long ahead = static_cast<long long>(k - m_at) * step;
      const long long cost = ahead < 0 ? (1LL << 40) - ahead : ahead;  // behind goes first
      if (cost > worst_cost) worst = k, worst_cost = cost;
    }
    if (worst < 0) return;
    m_held -= m_slots[std::size_t(worst)].frame->bytes();
    m_slots[std::size_t(worst)].frame.reset();
  }
}

// Output k's slot as judged now: a frame whose time is not after the last in-order time before
// it (outputs in index order, those not read yet left out) is a gap. Judged here, not when read:
// the threads finish in any order, and the verdict must not depend on theirs.
PlaybackSlot SeriesReader::judged(int k) const {
  PlaybackSlot s = m_slots[std::size_t(k)];
  if (!s.frame) return s;
  double last = -std::numeric_limits<double>::infinity();
  for (int j = 0; j < k; ++j)
    if (m_times[std::size_t(j)] && *m_times[std::size_t(j)] > last) last = *m_times[std::size_t(j)];
  const double t = *m_times[std::size_t(k)];
  if (t > last) return s;
  s.frame.reset();
  s.gap = m_outputs[std::size_t(k)].label + ": time " + time_text(t) +
          " is not after the outputs before it (out of order, or a time one of them has): skipped";
  return s;
}

void SeriesReader::run() {
  std::unique_lock<std::mutex> lock(m_mutex);
  for (;;) {
    m_wake.wait(lock, [&] { return m_stop || next_to_read() >= 0; });
    if (m_stop) return;
    const int k = next_to_read();
    const PlaybackOutput out = m_outputs[std::size_t(k)];
    m_reading[std::size_t(k)] = 1;
    lock.unlock();
    PlaybackSlot got;
    try {
      got.frame = std::shared_ptr<const PlaybackFrame>(
          new PlaybackFrame(frame_of(load_snapshot(out.path, m_options), k)), Disposal::later);
    } catch (const std::bad_alloc&) {
      got.gap = out.label + ": out of memory reading it";
    } catch (const std::exception& e) {
      got.gap = e.what();
    }
    lock.lock();
    m_reading[std::size_t(k)] = 0;
    PlaybackSlot& s = m_slots[std::size_t(k)];
    if (got.frame) {
      const double t = got.frame->time;
      if (!std::isfinite(t)) {
        got.gap = out.label + ": its time is not a finite number";
        got.frame.reset();
      } else {
        m_times[std::size_t(k)] = t;
        m_held += got.frame->bytes();
      }
    }
    s = std::move(got);
    evict();
    m_read.notify_all();
    m_wake.notify_all();  // another reader may go on ahead now
  }
}

std::vector<int> match_bodies(const PlaybackFrame& a, const PlaybackFrame& b) {
  const std::size_t na = a.bodies.pos.size(), nb = b.bodies.pos.size();
  const bool ia = !a.ids.empty(), ib = !b.ids.empty();
  const std::string which =
      "outputs " + std::to_string(a.index) + " and " + std::to_string(b.index);
  if (!ia && !ib) {
    if (na != nb)
      throw InputError(which + " have " + std::to_string(na) + " and " + std::to_string(nb) +
                       " bodies and no IDs to match them");
    return {};
  }
  if (ia != ib) throw InputError(which + ": one has particle IDs and the other none");
  // Outputs as the reader gives them are in ID order: the same IDs are the same rows.
  if (a.ids == b.ids && strictly_increasing(a.ids)) return {};
  const std::vector<int> oa = order_by_id(a), ob = order_by_id(b);
  // A merge of the two ID orders.
  std::vector<int> b_of_a(na, -1);
  std::size_t j = 0;
  for (int i : oa) {
    const std::uint64_t id = a.ids[std::size_t(i)];
    while (j < nb && b.ids[std::size_t(ob[j])] < id) ++j;
    if (j < nb && b.ids[std::size_t(ob[j])] == id) b_of_a[std::size_t(i)] = ob[j];
  }
  return b_of_a;
}

void put_in_id_order(PlaybackFrame& f) {
  if (!f.ids.empty() && !strictly_increasing(f.ids)) {
    const std::vector<int> order = order_by_id(f);
    permute(f.bodies.pos, order), permute(f.bodies.vel, order);
    permute(f.types, order), permute(f.ids, order);
  }
  std::uint64_t h = 0xcbf29ce484222325ULL;
  h = mix(mix(h, f.types.size()), f.ids.size());
  for (std::uint64_t id : f.ids) h = mix(h, id);
  std::size_t k = 0;
  for (; k + 8 <= f.types.size(); k += 8) {
    std::uint64_t w;
    std::memcpy(&w, f.types.data() + k, 8);
    h = mix(h, w);
  }
  for (; k < f.types.size(); ++k) h = mix(h, f.types[k]);
  f.labels_key = h;
}

void hermite_between(const PlaybackFrame& a, const PlaybackFrame& b, const std::vector<int>& b_of_a,
                     double t, BodyState& out) {
  const std::size_t n = a.bodies.pos.size();
  out.pos = a.bodies.pos;
  out.vel = a.bodies.vel;
  out.pos64.clear(), out.vel64.clear();
  if (b_of_a.empty() && b.bodies.pos.size() != n)
    throw std::invalid_argument("hermite_between: outputs of two sizes with no matching");
  const double h = b.time - a.time;
  if (!(h > 0)) return;
  const double s = std::clamp((t - a.time) / h, 0.0, 1.0), s2 = s * s, s3 = s2 * s;
  // The Hermite basis and its derivative (per unit of s).
  const double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2,
               h11 = s3 - s2;
  const double d00 = 6 * s2 - 6 * s, d10 = 3 * s2 - 4 * s + 1, d01 = -d00, d11 = 3 * s2 - 2 * s;
#pragma omp parallel for schedule(static) if (n > 65536)
  for (std::size_t i = 0; i < n; ++i) {
    const int j = b_of_a.empty() ? static_cast<int>(i) : b_of_a[i];
    if (j < 0) continue;
    const Vec4 &p0 = a.bodies.pos[i], &v0 = a.bodies.vel[i];
    const Vec4 &p1 = b.bodies.pos[std::size_t(j)], &v1 = b.bodies.vel[std::size_t(j)];
    auto at = [&](float x0, float u0, float x1, float u1, float& x, float& u) {
      x = static_cast<float>(h00 * x0 + h10 * h * u0 + h01 * x1 + h11 * h * u1);
      u = static_cast<float>((d00 * x0 + d01 * x1) / h + d10 * u0 + d11 * u1);
    };
    Vec4& p = out.pos[i];
    Vec4& v = out.vel[i];
    at(p0.x, v0.x, p1.x, v1.x, p.x, v.x);
    at(p0.y, v0.y, p1.y, v1.y, p.y, v.y);
    at(p0.z, v0.z, p1.z, v1.z, p.z, v.z);
  }
}

}  // namespace orrery
