// EGL display selection (device platform, then fallbacks), context creation and teardown.
#include "egl_context.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

#include "gl_loader.h"

namespace orrery::gfx {
namespace {

bool has_extension(const char* list, const std::string& name) {
  if (!list) return false;
  const std::string s = std::string(" ") + list + " ";
  return s.find(" " + name + " ") != std::string::npos;
}

std::string egl_error() {
  char buf[32];
  std::snprintf(buf, sizeof buf, "EGL error 0x%04x", static_cast<unsigned>(eglGetError()));
  return buf;
}

template <class F>
F egl_proc(const char* name) {
  return reinterpret_cast<F>(eglGetProcAddress(name));
}

struct Candidate {
  EGLDisplay display = EGL_NO_DISPLAY;
  std::string label;
};

// The device platform's displays, best first: the CUDA device 0, other hardware, software.
std::vector<Candidate> device_displays(std::string& notes) {
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  auto query_devices = egl_proc<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
  auto query_string = egl_proc<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
  auto query_attrib = egl_proc<PFNEGLQUERYDEVICEATTRIBEXTPROC>("eglQueryDeviceAttribEXT");
  auto platform_display = egl_proc<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
  if (!has_extension(client, "EGL_EXT_platform_device") || !query_devices || !platform_display) {
    notes = "no EGL device platform";
    return {};
  }
  EGLint count = 0;
  if (!query_devices(0, nullptr, &count) || count < 1) {
    notes = "the EGL device platform lists no devices";
    return {};
  }
  std::vector<EGLDeviceEXT> devices(static_cast<std::size_t>(count));
  query_devices(count, devices.data(), &count);
  std::vector<std::pair<int, Candidate>> ranked;
  for (int i = 0; i < count; ++i) {
    const char* ext = query_string ? query_string(devices[i], EGL_EXTENSIONS) : nullptr;
    int rank = has_extension(ext, "EGL_MESA_device_software") ? 2 : 1;
    std::string kind = rank == 2 ? "software" : "hardware";
    EGLAttrib cuda = -1;
    if (has_extension(ext, "EGL_NV_device_cuda") && query_attrib &&
        query_attrib(devices[i], EGL_CUDA_DEVICE_NV, &cuda)) {
      kind = "CUDA device " + std::to_string(cuda);
      if (cuda == 0) rank = 0;
    }
    Candidate c;
    c.display = platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
    c.label =
        "EGL device " + std::to_string(i) + " of " + std::to_string(count) + " (" + kind + ")";
    if (c.display != EGL_NO_DISPLAY) ranked.push_back({rank, c});
  }
  std::vector<Candidate> out;
  for (int r = 0; r <= 2; ++r)
    for (const auto& [rank, c] : ranked)
      if (rank == r) out.push_back(c);
  return out;
}

}  // namespace

struct EglContext::Impl {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLSurface surface = EGL_NO_SURFACE;
  EGLContext context = EGL_NO_CONTEXT;
  std::string description;

  // Tries one display; on failure leaves nothing behind and appends the reason to `why`.
  bool open(const Candidate& c, std::string& why) {
    EGLint major = 0, minor = 0;
    if (!eglInitialize(c.display, &major, &minor)) {
      why += "; " + c.label + ": eglInitialize failed (" + egl_error() + ")";
      return false;
    }
    display = c.display;
    if (!eglBindAPI(EGL_OPENGL_API)) return fail(c, "no desktop OpenGL API", why);
    const EGLint pbuffer_attribs[] = {EGL_SURFACE_TYPE,
                                      EGL_PBUFFER_BIT,
                                      EGL_RED_SIZE,
                                      8,
                                      EGL_GREEN_SIZE,
                                      8,
                                      EGL_BLUE_SIZE,
                                      8,
                                      EGL_ALPHA_SIZE,
                                      8,
                                      EGL_RENDERABLE_TYPE,
                                      EGL_OPENGL_BIT,
                                      EGL_NONE};
    const EGLint any_attribs[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                  EGL_NONE};
    EGLConfig config = nullptr;
    EGLint n = 0;
    bool pbuffer = eglChooseConfig(display, pbuffer_attribs, &config, 1, &n) && n == 1;
    if (!pbuffer && !(eglChooseConfig(display, any_attribs, &config, 1, &n) && n == 1))
      return fail(c, "no OpenGL config", why);
    const EGLint ctx_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                  3,
                                  EGL_CONTEXT_MINOR_VERSION,
                                  3,
                                  EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                  EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                  EGL_NONE};
    context = eglCreateContext(display, config, EGL_NO_CONTEXT, ctx_attribs);
    if (context == EGL_NO_CONTEXT) return fail(c, "no OpenGL 3.3 core context", why);
    if (pbuffer) {
      const EGLint surf_attribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
      surface = eglCreatePbufferSurface(display, config, surf_attribs);
      pbuffer = surface != EGL_NO_SURFACE;
    }
    if (!eglMakeCurrent(display, surface, surface, context))
      return fail(c, pbuffer ? "cannot make the context current" : "no surfaceless contexts", why);
    description = c.label + ", " + (pbuffer ? "pbuffer" : "surfaceless") + " + framebuffer object";
    return true;
  }

  bool fail(const Candidate& c, const char* what, std::string& why) {
    why += "; " + c.label + ": " + what + " (" + egl_error() + ")";
    close();
    return false;
  }

  void close() {
    if (display == EGL_NO_DISPLAY) return;
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (surface != EGL_NO_SURFACE) eglDestroySurface(display, surface);
    if (context != EGL_NO_CONTEXT) eglDestroyContext(display, context);
    eglTerminate(display);
    display = EGL_NO_DISPLAY;
    surface = EGL_NO_SURFACE;
    context = EGL_NO_CONTEXT;
  }
};

EglContext::EglContext() : m_impl(std::make_unique<Impl>()) {
  std::string notes;
  std::vector<Candidate> candidates = device_displays(notes);
  auto platform_display = egl_proc<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
  if (platform_display && has_extension(eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS),
                                        "EGL_MESA_platform_surfaceless"))
    candidates.push_back(
        {platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr),
         "EGL surfaceless platform (Mesa)"});
  candidates.push_back({eglGetDisplay(EGL_DEFAULT_DISPLAY), "EGL default display"});
  std::string why = notes;
  for (const Candidate& c : candidates) {
    if (c.display == EGL_NO_DISPLAY || !m_impl->open(c, why)) continue;
    try {
      load_gl(true);
    } catch (const std::exception& e) {
      why += "; " + c.label + ": " + e.what();
      m_impl->close();
      continue;
    }
    if (!notes.empty()) m_impl->description += " (" + notes + ")";
    return;
  }
  throw std::runtime_error(
      "cannot create a headless OpenGL 3.3 context through EGL" +
      (why.empty() ? std::string() : " (" + why.substr(why[0] == ';' ? 2 : 0) + ")"));
}

EglContext::~EglContext() {
  if (m_impl) m_impl->close();
}

EglContext::EglContext(EglContext&&) noexcept = default;
EglContext& EglContext::operator=(EglContext&& o) noexcept {
  if (this != &o) {
    if (m_impl) m_impl->close();
    m_impl = std::move(o.m_impl);
  }
  return *this;
}

const std::string& EglContext::description() const { return m_impl->description; }

}  // namespace orrery::gfx
