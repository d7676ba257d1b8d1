// Decodes a PNG and checks it shows something: enough lit pixels, but not everything lit.
// Usage: png_check FILE WIDTH HEIGHT [IGNORE_W IGNORE_H]  (a top-left box to ignore: the overlay)
#include <stb_image.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: png_check FILE WIDTH HEIGHT [IGNORE_W IGNORE_H]\n");
    return 2;
  }
  const int want_w = std::atoi(argv[2]), want_h = std::atoi(argv[3]);
  const int skip_w = argc > 5 ? std::atoi(argv[4]) : 0, skip_h = argc > 5 ? std::atoi(argv[5]) : 0;
  int w = 0, h = 0, channels = 0;
  unsigned char* px = stbi_load(argv[1], &w, &h, &channels, 3);
  if (!px) {
    std::fprintf(stderr, "png_check: cannot decode %s: %s\n", argv[1], stbi_failure_reason());
    return 1;
  }
  long lit = 0, counted = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if (x < skip_w && y < skip_h) continue;
      const unsigned char* p = px + 3 * (static_cast<long>(y) * w + x);
      const int peak = p[0] > p[1] ? (p[0] > p[2] ? p[0] : p[2]) : (p[1] > p[2] ? p[1] : p[2]);
      ++counted;
      if (peak > 80) ++lit;
    }
  stbi_image_free(px);
  const double fraction = counted ? static_cast<double>(lit) / static_cast<double>(counted) : 0.0;
  std::printf("png_check: %s %dx%d, %ld of %ld pixels lit (%.2f%%)\n", argv[1], w, h, lit, counted,
              100.0 * fraction);
  if (w != want_w || h != want_h) {
    std::fprintf(stderr, "png_check: expected %dx%d\n", want_w, want_h);
    return 1;
  }
  if (lit < 300) {
    std::fprintf(stderr, "png_check: too few lit pixels: no visible bodies\n");
    return 1;
  }
  if (fraction > 0.5) {
    std::fprintf(stderr, "png_check: more than half the image is lit\n");
    return 1;
  }
  return 0;
}
