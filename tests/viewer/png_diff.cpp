// Compares two screenshots of the same scene (GL sprites against a splat): the mean and
// largest per-channel difference, and the share of pixels off by more than 4 levels.
// Usage: png_diff A.png B.png [IGNORE_W IGNORE_H]  (a top-left box to ignore: the overlay text)
#include <stb_image.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc != 3 && argc != 5) {
    std::fprintf(stderr, "usage: png_diff A.png B.png [IGNORE_W IGNORE_H]\n");
    return 2;
  }
  const int skip_w = argc == 5 ? std::atoi(argv[3]) : 0,
            skip_h = argc == 5 ? std::atoi(argv[4]) : 0;
  int w[2] = {}, h[2] = {}, channels = 0;
  unsigned char* px[2] = {};
  for (int k = 0; k < 2; ++k) {
    px[k] = stbi_load(argv[1 + k], &w[k], &h[k], &channels, 3);
    if (!px[k]) {
      std::fprintf(stderr, "png_diff: cannot decode %s: %s\n", argv[1 + k], stbi_failure_reason());
      return 1;
    }
  }
  if (w[0] != w[1] || h[0] != h[1]) {
    std::fprintf(stderr, "png_diff: sizes differ: %dx%d and %dx%d\n", w[0], h[0], w[1], h[1]);
    return 1;
  }
  double sum = 0.0;
  int worst = 0;
  long off = 0, counted = 0;
  for (int y = 0; y < h[0]; ++y)
    for (int x = 0; x < w[0]; ++x) {
      if (x < skip_w && y < skip_h) continue;
      const long i = 3 * (static_cast<long>(y) * w[0] + x);
      int pixel_worst = 0;
      for (int c = 0; c < 3; ++c) {
        const int d = std::abs(px[0][i + c] - px[1][i + c]);
        sum += d;
        pixel_worst = d > pixel_worst ? d : pixel_worst;
      }
      worst = pixel_worst > worst ? pixel_worst : worst;
      off += pixel_worst > 4;
      ++counted;
    }
  stbi_image_free(px[0]);
  stbi_image_free(px[1]);
  const double mean = counted ? sum / (3.0 * static_cast<double>(counted)) : 0.0;
  const double share = counted ? static_cast<double>(off) / static_cast<double>(counted) : 0.0;
  std::printf("png_diff: mean %.3f levels, max %d, %.3f%% of pixels off by more than 4\n", mean,
              worst, 100.0 * share);
  if (mean > 0.5 || share > 0.005) {
    std::fprintf(stderr,
                 "png_diff: the images differ (limits: mean 0.5 levels, 0.5%% of pixels)\n");
    return 1;
  }
  return 0;
}
