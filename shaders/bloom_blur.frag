#version 330 core
// One pass of the bloom's Gaussian blur on its small image, along u_dir (gfx/bloom.h's taps and
// weights: 8 each side, sigma 3, summing to 1; the image's edge repeats).
uniform sampler2D u_small;
uniform ivec2 u_dir;
out vec4 frag_color;

void main() {
  ivec2 size = textureSize(u_small, 0);
  ivec2 p = ivec2(gl_FragCoord.xy);
  vec3 sum = vec3(0.0);
  for (int k = -8; k <= 8; ++k) {
    ivec2 q = clamp(p + u_dir * k, ivec2(0), size - ivec2(1));
    float w = 0.1335712203 * exp(-0.5 * float(k * k) / 9.0);
    sum += w * texelFetch(u_small, q, 0).rgb;
  }
  frag_color = vec4(sum, 1.0);
}
