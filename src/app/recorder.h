// Video recording of the drawn frames at a fixed frame rate: YUV4MPEG2 (.y4m) written directly,
// or H.264 MP4 (.mp4) through an ffmpeg found at run time, fed raw frames through a pipe.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "orrery/no_copy.h"

namespace orrery::app {

enum class VideoFormat { y4m, mp4 };

// By the name's end: ".y4m" or ".mp4" (any case). Throws InputError naming `what` otherwise.
VideoFormat video_format_for(const std::string& path, const std::string& what);
// Whether an ffmpeg runs here (`ffmpeg -version` through the shell's PATH; asked once a run).
bool ffmpeg_available();
// "YYYYmmdd-HHMMSS" for the current local time.
std::string timestamp_text();
// "orrery-YYYYmmdd-HHMMSS" and `ext` (".png"): the names of files the keys write (`stem` in place
// of "orrery"). Never the name of a file that exists, or of one being recorded (".part"), nor one
// this process gave before: "-2", "-3", ... follow the time when it is taken (several presses in
// one second once left one file).
std::string timestamped_name(const std::string& ext, const std::string& stem = "orrery");
// A fresh name for a recording started by the V key: ".mp4" (".y4m" without ffmpeg).
std::string timestamped_video_name();

// 4:2:0 planes (BT.601, limited range) of a top-down RGB image of even width and height, as the
// Y4M and the ffmpeg paths both take them: Y (w h bytes), then U and V (w h / 4 each).
void rgb_to_yuv420(const std::uint8_t* rgb, int w, int h, std::vector<std::uint8_t>& out);

class Recorder : NoCopy {
 public:
  // Starts a recording of w x h frames (both even) at `fps`. Throws std::runtime_error naming the
  // file (cannot create it; ffmpeg missing or failing to start).
  Recorder(const std::string& path, int w, int h, int fps);
  ~Recorder();  // finishes quietly if finish() was not called

  // One frame: top-down RGB, w x h. Throws std::runtime_error when the write fails.
  void add(const std::uint8_t* rgb);
  // The same from a w x h picture of another size (the window was resized): scaled to fit the
  // recording's size, keeping its shape, on black.
  void add_fitted(const std::uint8_t* rgb, int w, int h);
  // Closes the file (Y4M: renamed into place; MP4: waits for ffmpeg). Throws on failure.
  void finish();

  const std::string& path() const { return m_path; }
  int width() const { return m_w; }
  int height() const { return m_h; }
  long long frames() const { return m_frames; }
  double seconds() const { return static_cast<double>(m_frames) / m_fps; }
  // Bytes written so far (Y4M) or fed to ffmpeg (MP4).
  long long bytes() const { return m_bytes; }
  // "recording run.mp4: 120 frames, 2.0 s of video, 41.5 MB".
  std::string progress() const;

 private:
  void write(const void* data, std::size_t size);
  // The name asked for, the file it names (through symbolic links: the link stays a link), the
  // temporary file renamed over it when the recording is whole, and ffmpeg's error log.
  std::string m_path, m_target, m_tmp, m_log;
  VideoFormat m_format;
  int m_w, m_h, m_fps;
  std::FILE* m_out = nullptr;  // the Y4M temporary file, or ffmpeg's stdin
  long long m_frames = 0, m_bytes = 0;
  std::vector<std::uint8_t> m_yuv, m_fitted;
  bool m_done = false;
};

}  // namespace orrery::app
