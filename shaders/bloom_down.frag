#version 330 core
// The bloom's small image: the HDR light above the threshold, averaged over this pixel's 4 x 4
// block of the picture (gfx/bloom.h; the CPU and CUDA paths do the same sums).
uniform sampler2D u_hdr;
uniform float u_threshold;
out vec4 frag_color;

void main() {
  ivec2 size = textureSize(u_hdr, 0);
  ivec2 base = ivec2(gl_FragCoord.xy) * 4;
  vec3 sum = vec3(0.0);
  float count = 0.0;
  for (int b = 0; b < 4; ++b) {
    for (int a = 0; a < 4; ++a) {
      ivec2 p = base + ivec2(a, b);
      if (p.x >= size.x || p.y >= size.y) continue;
      sum += max(texelFetch(u_hdr, p, 0).rgb - vec3(u_threshold), vec3(0.0));
      count += 1.0;
    }
  }
  frag_color = vec4(sum / max(count, 1.0), 1.0);
}
