// A headless OpenGL 3.3 core context through EGL (device platform first), for GPU servers.
#pragma once

#include <memory>
#include <string>

#include "orrery/no_copy.h"

namespace orrery::gfx {

// Opens an EGL display on a GPU (the CUDA device 0 where EGL can tell, else the first hardware
// device, else a software one), creates a GL 3.3 core context with a tiny pbuffer or none
// (surfaceless) and makes it current with GL loaded. Drawing goes to framebuffer objects.
// Falls back to the surfaceless or default display when the device platform is missing.
// Throws std::runtime_error with one clear line when nothing works.
class EglContext : NoCopy {
 public:
  EglContext();
  ~EglContext();
  EglContext(EglContext&&) noexcept;
  EglContext& operator=(EglContext&&) noexcept;

  // Which display and surface were chosen, e.g. "EGL device 0 of 4 (EGL_NV_device_cuda), pbuffer".
  const std::string& description() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace orrery::gfx
