// Playing a snapshot series back (a run's outputs, Orrery's or another code's): the outputs a
// glob, a folder or a list names, in order; a reader that reads ahead of play on a thread of its
// own within a memory budget, so whoever draws never waits on the disk; and the motion between two
// outputs, a cubic Hermite curve through each body's positions and velocities, with the bodies
// matched by ID where the files carry IDs (GADGET reorders its particles between outputs).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "orrery/snapshot.h"

namespace orrery {

// One output: what load_snapshot opens (a set's base name for a set of files) and the
// name shown for it.
struct PlaybackOutput {
  std::string path;
  std::string label;  // the file's name, without its folder (a set's: "snap_005.0-3")
};

// Whether an argument names a series rather than one file: a glob (*, ? or [ in its name), a
// folder, or several arguments.
bool names_series(const std::vector<std::string>& args);

// The outputs the arguments name: each a glob ("run/snap_*.hdf5"), a folder (the snapshot files
// in it, told by their content) or a file, together in natural order (the numbers in the names
// compared as numbers: snap_9 before snap_10). The files of a set (snap_005.0, .1, ... or .0.hdf5)
// are one output. Throws InputError in one line: a glob that matches nothing, a folder with no
// snapshot, a file that is missing or no snapshot, outputs in two formats, a name given twice.
std::vector<PlaybackOutput> list_series(const std::vector<std::string>& args);

// One output as read: its bodies (positions with masses, velocities with radii), types and IDs
// (empty where the file has none), and its time. Where the file carries IDs, the reader puts the
// bodies in the order of their IDs, so the same row is the same body in every output that has the
// same bodies (GADGET reorders its particles between outputs): matching two such outputs costs
// nothing, and whatever follows a body by its row (trails, picking) follows its ID.
struct PlaybackFrame {
  int index = 0;
  double time = 0;
  BodyState bodies;
  std::vector<std::uint8_t> types;
  std::vector<std::uint64_t> ids;
  // A hash of the types and IDs: two outputs with the same key carry the same labels, so a viewer
  // need not hand them over again.
  std::uint64_t labels_key = 0;
  std::size_t bytes() const;
};
// Puts f's bodies in the order of their IDs (no change without IDs) and sets its labels_key;
// throws InputError for an ID given twice.
void put_in_id_order(PlaybackFrame& f);

// What became of an output: not read yet, read (the frame), or a gap with its reason in one line
// (a file gone or damaged, a time not after the output before it).
struct PlaybackSlot {
  std::shared_ptr<const PlaybackFrame> frame;
  std::string gap;
  bool done() const { return frame || !gap.empty(); }
};

// Reads a series' outputs on threads of its own (`threads` outputs at once; 0: half the host's
// cores, 2 to 8), ahead of where play is going,
// holding at most `budget` bytes of frames (dropping those furthest behind play first); the output
// played and the next one in play's direction are always kept, whatever the budget. Times are
// checked as outputs are read: one whose time is not after the output before it (out of order, or
// the same time) is a gap, as is a file that cannot be read; play goes on around gaps.
class SeriesReader {
 public:
  SeriesReader(std::vector<PlaybackOutput> outputs, LoadOptions options, std::size_t budget,
               int threads = 0);
  ~SeriesReader();
  SeriesReader(const SeriesReader&) = delete;
  SeriesReader& operator=(const SeriesReader&) = delete;

  int size() const { return static_cast<int>(m_outputs.size()); }
  const PlaybackOutput& output(int k) const { return m_outputs[static_cast<std::size_t>(k)]; }
  // Where play is (an output) and where it goes (+1, -1; 0: paused): what to read next.
  void aim(int at, int direction);
  // Output k as it stands now; never waits.
  PlaybackSlot slot(int k) const;
  // Waits until output k is read or known to be a gap.
  PlaybackSlot wait(int k);
  // The time of output k where known (read), for the timeline.
  std::optional<double> time(int k) const;
  std::size_t held_bytes() const;
  std::size_t budget() const { return m_budget; }

 private:
  void run();
  int next_to_read() const;                   // under m_mutex; -1: nothing to do
  void evict();                               // under m_mutex
  PlaybackSlot judged(int k) const;           // under m_mutex

  std::vector<PlaybackOutput> m_outputs;
  LoadOptions m_options;
  std::size_t m_budget;
  mutable std::mutex m_mutex;
  std::condition_variable m_wake, m_read;
  std::vector<PlaybackSlot> m_slots;
  std::vector<char> m_reading;  // outputs a thread is reading now
  std::vector<std::optional<double>> m_times;
  std::size_t m_held = 0;
  int m_at = 0, m_direction = 1;
  int m_wanted = -1;  // an output a caller waits for
  bool m_stop = false;
  std::vector<std::thread> m_threads;
};

// Which body of output b each body of output a is: b_of_a[i] is the index in b of a's body i, or
// -1 where b has no body of its ID (merged or removed); empty where every body is itself (the same
// IDs in the same order, or no IDs and the same count). By ID where both carry IDs; by index where
// neither does and the counts agree. Throws InputError in one line otherwise (counts that differ
// with no IDs to match them, IDs on one side only, an ID twice in one output).
std::vector<int> match_bodies(const PlaybackFrame& a, const PlaybackFrame& b);

// The state between outputs a and b at time t (a.time <= t <= b.time): each body matched in b
// moves on the cubic Hermite curve through its positions and velocities at both ends (continuous
// in position and velocity across outputs; exact for motion of constant acceleration); its
// velocity is the curve's derivative, its mass and radius a's. A body b has no match for stays at
// a's values. out holds a's bodies, in a's order.
void hermite_between(const PlaybackFrame& a, const PlaybackFrame& b, const std::vector<int>& b_of_a,
                     double t, BodyState& out);
// The same on the device, over device arrays: a's n bodies (positions, velocities), b's, and
// b_of_a (null: each body is itself); out_pos and out_vel get a's bodies at time t. With b_pos
// null (no output to move towards), out gets a's as they are. Throws std::runtime_error in a build
// without CUDA.
void hermite_between_device(const Vec4* a_pos, const Vec4* a_vel, const Vec4* b_pos,
                            const Vec4* b_vel, const int* b_of_a, int n, double ta, double tb,
                            double t, Vec4* out_pos, Vec4* out_vel);

// The motion between outputs on the device, for a viewer that draws every frame: outputs are
// uploaded, and the bodies of two outputs matched, on a thread and a CUDA stream of their own, so
// the thread that draws never waits for a 512 MB copy. It holds three outputs on the device: the
// pair shown and the next output play reaches, uploaded ahead.
class DevicePlayback {
 public:
  using Frame = std::shared_ptr<const PlaybackFrame>;
  // Throws std::runtime_error in a build without CUDA.
  DevicePlayback();
  ~DevicePlayback();
  DevicePlayback(const DevicePlayback&) = delete;
  DevicePlayback& operator=(const DevicePlayback&) = delete;
  // Whether outputs a and b (b null: a as it is) are on the device with their matching, for
  // move(); where not, they are asked for ahead of anything else, and move() must not be called
  // until this says yes. `next` (may be null): the output play reaches after the pair, uploaded
  // ahead. Never waits, unless `wait`. Throws std::runtime_error where the thread's copy failed.
  bool ready(const Frame& a, const Frame& b, const Frame& next, bool wait = false);
  // The ready pair's bodies at time t (a's order) into device arrays; as a where the two could
  // not be matched.
  void move(double t, Vec4* out_pos, Vec4* out_vel);
  // Pairs whose bodies could not be matched since the last call (shown without motion between
  // them): the later output's index and why, once each.
  std::vector<std::pair<int, std::string>> take_unmatched();

 private:
  struct Impl;
  std::unique_ptr<Impl> m;
};

}  // namespace orrery
