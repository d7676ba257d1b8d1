// Splatting the bodies' sprites into a linear RGBA float image: a CPU reference and a CUDA kernel
// (the viewer's draw path on GPUs with little raster hardware), and the tone map after it. No GL
// and no CUDA types here.
#pragma once

#include <cstdint>

#include "gfx/sprite.h"
#include "orrery/physics.h"

namespace orrery::gfx {

// Throws std::invalid_argument, naming `who`, for n < 0, an empty image, or a colour quantity that
// needs the bodies' values without them: what every splat refuses.
void check_splat(const char* who, int n, const SpriteParams& p, const float* values);

// Clears rgba (p.width * p.height pixels of 4 floats, row 0 the bottom one) and adds every body's
// sprite into it, as the GL sprite pass adds into its HDR target. Host pointers. `values`: the
// bodies' stored quantity (p.color's, orrery/fields.h), needed unless it is the speed or the mass.
void splat_cpu(const Vec4* pos, const Vec4* vel, int n, const SpriteParams& p, float* rgba,
               const float* values = nullptr);

// The same on the GPU: device pointers, the default stream, asynchronous. Throws
// std::runtime_error when the build has no CUDA or a CUDA call fails.
void splat_device(const Vec4* pos, const Vec4* vel, int n, const SpriteParams& p, float* rgba,
                  const float* values = nullptr);

// Tone-maps an HDR image (as splat_*() write it) into 8-bit RGBA (row 0 the bottom one), as
// shaders/tonemap.frag does. Host pointers.
void tonemap_cpu(const float* rgba, int width, int height, float exposure, std::uint8_t* rgba8);

// The same on the GPU: device pointers, the default stream, asynchronous.
void tonemap_device(const float* rgba, int width, int height, float exposure, std::uint8_t* rgba8);

// Whether splat_device and tonemap_device can run in this build.
bool splat_device_compiled();

}  // namespace orrery::gfx
