// Splatting the bodies' sprites into a linear RGBA float image: a CPU reference and a CUDA kernel
// (the viewer's draw path on GPUs with little raster hardware). No GL and no CUDA types here.
#pragma once

#include <memory>

#include "gfx/sprite.h"
#include "orrery/physics.h"

namespace orrery::gfx {

// Clears rgba (p.width * p.height pixels of 4 floats, row 0 the bottom one) and adds every body's
// sprite into it, as the GL sprite pass adds into its HDR target. Host pointers.
void splat_cpu(const Vec4* pos, const Vec4* vel, int n, const SpriteParams& p, float* rgba);

// The same on the GPU: device pointers, the default stream, asynchronous. Throws
// std::runtime_error when the build has no CUDA or a CUDA call fails.
void splat_device(const Vec4* pos, const Vec4* vel, int n, const SpriteParams& p, float* rgba);

// Whether splat_device can run in this build.
bool splat_device_compiled();

}  // namespace orrery::gfx
