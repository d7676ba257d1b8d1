// Recording: Y4M frames ("FRAME\n" and the 4:2:0 planes after a one-line header) into a temporary
// file renamed at the end, or the same planes piped to ffmpeg for H.264.
#include "recorder.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <set>
#include <stdexcept>

#include "orrery/input.h"
#include "orrery/output_file.h"

namespace orrery::app {
namespace {

std::string lower_tail(const std::string& s, std::size_t n) {
  std::string t = s.size() >= n ? s.substr(s.size() - n) : s;
  std::transform(t.begin(), t.end(), t.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return t;
}

// Single quotes for the shell: ' becomes '\''.
std::string shell_quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::uint8_t clamp8(double v) {
  return static_cast<std::uint8_t>(std::min(255.0, std::max(0.0, v + 0.5)));
}

}  // namespace

VideoFormat video_format_for(const std::string& path, const std::string& what) {
  if (lower_tail(path, 4) == ".y4m") return VideoFormat::y4m;
  if (lower_tail(path, 4) == ".mp4") return VideoFormat::mp4;
  throw InputError(what + ": '" + path + "' must end in .mp4 (through ffmpeg) or .y4m");
}

bool ffmpeg_available() {
  static const bool found = std::system("ffmpeg -version >/dev/null 2>&1") == 0;
  return found;
}

std::string timestamp_text() { return clock_text("%Y%m%d-%H%M%S", false); }

std::string timestamped_name(const std::string& ext, const std::string& stem) {
  static std::set<std::string> given;
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  const std::string base = stem + "-" + timestamp_text();
  for (int k = 1;; ++k) {
    const std::string name = base + (k > 1 ? "-" + std::to_string(k) : std::string()) + ext;
    if (given.count(name) || ::access(name.c_str(), F_OK) == 0 ||
        ::access((name + ".part").c_str(), F_OK) == 0)
      continue;
    given.insert(name);
    return name;
  }
}

std::string timestamped_video_name() {
  return timestamped_name(ffmpeg_available() ? ".mp4" : ".y4m");
}

void rgb_to_yuv420(const std::uint8_t* rgb, int w, int h, std::vector<std::uint8_t>& out) {
  const std::size_t wh = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
  out.resize(wh + wh / 2);
  std::uint8_t* y = out.data();
  std::uint8_t* u = y + wh;
  std::uint8_t* v = u + wh / 4;
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i) {
      const std::uint8_t* p = rgb + 3 * (static_cast<std::size_t>(j) * w + i);
      y[static_cast<std::size_t>(j) * w + i] =
          clamp8(16.0 + (65.481 * p[0] + 128.553 * p[1] + 24.966 * p[2]) / 255.0);
    }
  for (int j = 0; j < h / 2; ++j)
    for (int i = 0; i < w / 2; ++i) {
      double r = 0, g = 0, b = 0;  // the mean of the 2 x 2 block
      for (int dj = 0; dj < 2; ++dj)
        for (int di = 0; di < 2; ++di) {
          const std::uint8_t* p = rgb + 3 * (static_cast<std::size_t>(2 * j + dj) * w + 2 * i + di);
          r += p[0], g += p[1], b += p[2];
        }
      r /= 4.0, g /= 4.0, b /= 4.0;
      const std::size_t k = static_cast<std::size_t>(j) * (w / 2) + i;
      u[k] = clamp8(128.0 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255.0);
      v[k] = clamp8(128.0 + (112.0 * r - 93.786 * g - 18.214 * b) / 255.0);
    }
}

namespace {

// The file a name stands for: a symbolic link's target (followed to the end), so that a
// recording onto a link writes through it instead of replacing it.
std::string link_target(const std::string& path) {
  std::error_code e;
  std::filesystem::path p(path);
  for (int hops = 0; hops < 40 && std::filesystem::is_symlink(p, e); ++hops) {
    const std::filesystem::path to = std::filesystem::read_symlink(p, e);
    if (e) break;
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  return p.string();
}

// The first line of a file (ffmpeg's error log), "" when it is empty or cannot be read.
std::string first_line(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (!f) return "";
  char buf[400] = "";
  if (!std::fgets(buf, sizeof buf, f)) buf[0] = '\0';
  std::fclose(f);
  std::string line = buf;
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return line;
}

}  // namespace

Recorder::Recorder(const std::string& path, int w, int h, int fps)
    : m_path(path),
      m_target(link_target(path)),
      m_format(video_format_for(path, "recording")),
      m_w(w),
      m_h(h),
      m_fps(fps) {
  if (w <= 0 || h <= 0 || w % 2 || h % 2 || fps <= 0)
    throw std::runtime_error("recording " + path + ": needs an even size and a frame rate");
  m_tmp = m_target + ".part";
  if (m_format == VideoFormat::y4m) {
    m_out = std::fopen(m_tmp.c_str(), "wb");
    if (!m_out)
      throw std::runtime_error("recording " + path + ": cannot create " + m_tmp + ": " +
                               std::strerror(errno));
    const std::string header = "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + " F" +
                               std::to_string(fps) + ":1 Ip A1:1 C420jpeg\n";
    write(header.data(), header.size());
    return;
  }
  if (!ffmpeg_available())
    throw std::runtime_error("recording " + path +
                             ": ffmpeg is not installed (apt-get install ffmpeg), or record "
                             "to a .y4m file and encode it elsewhere");
  // A failing ffmpeg makes a write fail (EPIPE) instead of killing the viewer.
  std::signal(SIGPIPE, SIG_IGN);
  // ffmpeg's errors go to a log read at the end: on a full disk it can exit 0 having written a
  // broken file, and its error line is then the only sign.
  char log[] = "/tmp/orrery-ffmpeg-XXXXXX";
  const int fd = ::mkstemp(log);
  if (fd < 0)
    throw std::runtime_error("recording " + path +
                             ": cannot make ffmpeg's log: " + std::strerror(errno));
  ::close(fd);
  m_log = log;
  // The same 4:2:0 planes as the Y4M path; ffmpeg only encodes them, into the temporary file.
  const std::string cmd =
      "ffmpeg -hide_banner -loglevel error -y -f rawvideo -pix_fmt yuv420p "
      "-s " +
      std::to_string(w) + "x" + std::to_string(h) + " -r " + std::to_string(fps) +
      " -i - -c:v libx264 -preset veryfast -crf 20 "
      "-pix_fmt yuv420p -movflags +faststart -f mp4 " +
      shell_quoted(m_tmp) + " 2>" + shell_quoted(m_log);
  m_out = ::popen(cmd.c_str(), "w");
  if (!m_out) {
    std::remove(m_log.c_str());
    throw std::runtime_error("recording " + path +
                             ": cannot start ffmpeg: " + std::strerror(errno));
  }
}

Recorder::~Recorder() {
  if (m_done || !m_out) return;
  try {
    finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "orrery: %s\n", e.what());
  }
}

void Recorder::write(const void* data, std::size_t size) {
  if (std::fwrite(data, 1, size, m_out) != size) {
    const int e = errno;
    // ffmpeg gone (a broken pipe): its own line says why.
    const std::string said = m_log.empty() ? "" : first_line(m_log);
    if (!said.empty()) throw std::runtime_error("recording " + m_path + ": ffmpeg failed: " + said);
    throw std::runtime_error("recording " + m_path + ": write failed: " + std::strerror(e));
  }
  m_bytes += static_cast<long long>(size);
}

void Recorder::add(const std::uint8_t* rgb) {
  rgb_to_yuv420(rgb, m_w, m_h, m_yuv);
  if (m_format == VideoFormat::y4m) write("FRAME\n", 6);
  write(m_yuv.data(), m_yuv.size());
  ++m_frames;
}

void Recorder::add_fitted(const std::uint8_t* rgb, int w, int h) {
  if (w == m_w && h == m_h) return add(rgb);
  m_fitted.assign(static_cast<std::size_t>(m_w) * m_h * 3, 0);
  // The largest copy of the picture with its own shape inside the recording, centred; nearest
  // pixel (a resize mid-recording is rare, and this keeps the frame time flat).
  const double scale = std::min(static_cast<double>(m_w) / w, static_cast<double>(m_h) / h);
  const int fw = std::max(1, static_cast<int>(w * scale)), fh = std::max(1, static_cast<int>(h * scale));
  const int x0 = (m_w - fw) / 2, y0 = (m_h - fh) / 2;
  for (int y = 0; y < fh; ++y) {
    const int sy = std::min(h - 1, static_cast<int>((y + 0.5) / scale));
    for (int x = 0; x < fw; ++x) {
      const int sx = std::min(w - 1, static_cast<int>((x + 0.5) / scale));
      const std::uint8_t* s = rgb + 3 * (static_cast<std::size_t>(sy) * w + sx);
      std::uint8_t* d = m_fitted.data() + 3 * (static_cast<std::size_t>(y0 + y) * m_w + x0 + x);
      d[0] = s[0], d[1] = s[1], d[2] = s[2];
    }
  }
  add(m_fitted.data());
}

void Recorder::finish() {
  if (m_done) return;
  m_done = true;
  if (m_format == VideoFormat::y4m) {
    const bool ok = std::fflush(m_out) == 0 && ::fsync(fileno(m_out)) == 0;
    const int e = errno;
    std::fclose(m_out);
    m_out = nullptr;
    if (!ok || std::rename(m_tmp.c_str(), m_target.c_str()) != 0) {
      std::remove(m_tmp.c_str());
      throw std::runtime_error("recording " + m_path + ": cannot finish: " + std::strerror(e));
    }
    return;
  }
  const int status = ::pclose(m_out);
  m_out = nullptr;
  const std::string said = first_line(m_log);
  std::remove(m_log.c_str());
  bool ok = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0 && said.empty();
  int e = 0;
  if (ok) {  // whole on the disk before it takes the name
    const int fd = ::open(m_tmp.c_str(), O_RDONLY);
    ok = fd >= 0 && ::fsync(fd) == 0;
    e = errno;
    if (fd >= 0) ::close(fd);
    ok = ok && std::rename(m_tmp.c_str(), m_target.c_str()) == 0;
    if (!ok && e == 0) e = errno;
  }
  if (ok) return;
  std::remove(m_tmp.c_str());
  if (!said.empty()) throw std::runtime_error("recording " + m_path + ": ffmpeg failed: " + said);
  if (e != 0)
    throw std::runtime_error("recording " + m_path + ": cannot finish: " + std::strerror(e));
  throw std::runtime_error("recording " + m_path + ": ffmpeg failed (exit status " +
                           std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
}

std::string Recorder::progress() const {
  char buf[512];
  std::snprintf(buf, sizeof buf, "recording %s: %lld frames, %.1f s of video, %.1f MB%s",
                m_path.c_str(), m_frames, seconds(), static_cast<double>(m_bytes) / 1e6,
                m_format == VideoFormat::mp4 ? " fed to ffmpeg" : "");
  return buf;
}

}  // namespace orrery::app
