// Scratch probe (not part of the build): times cuda-static's kernel instantiations on one GPU.
#include <cuda_runtime.h>

#include "orrery/physics.h"
namespace orrery {
#include "kernels.inc"
#include "variants.inc"
}  // namespace orrery
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>
using namespace orrery;
template <class F>
float timeit(F f) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> t;
  f();
  cudaDeviceSynchronize();
  for (int r = 0; r < 3; ++r) {
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[1];
}
int main() {
  const int n = 1 << 20;
  std::vector<Vec4> h(n);
  std::mt19937 g(1);
  std::uniform_real_distribution<float> u(-1, 1);
  for (auto& p : h) p = Vec4{u(g), u(g), u(g), 1.0f / n};
  Vec4 *pos, *out, *vel, *acc;
  cudaMalloc(&pos, n * 16);
  cudaMalloc(&out, n * 16);
  cudaMalloc(&vel, n * 16);
  cudaMalloc(&acc, n * 16);
  cudaMemcpy(pos, h.data(), n * 16, cudaMemcpyHostToDevice);
  cudaMemset(vel, 0, n * 16);
  const float e2 = 0.01f;
  auto grid = [](int c) { return (c + 255) / 256; };
  printf("A fused false       %.2f\n", timeit([&] {
           tiled_static_kernel<Vec4, 256, false>
               <<<grid(n), 256>>>(pos, out, vel, nullptr, n, 0, n, e2, 0.016f, 1.0f);
         }));
  printf("B acc false         %.2f\n", timeit([&] {
           tiled_static_kernel<Vec4, 256, false>
               <<<grid(n), 256>>>(pos, nullptr, nullptr, acc, n, 0, n, e2, 0.016f, 1.0f);
         }));
  printf("C acc true  [0,n)   %.2f\n", timeit([&] {
           tiled_static_kernel<Vec4, 256, true>
               <<<grid(n), 256>>>(pos, nullptr, nullptr, acc, n, 0, n, e2, 0.016f, 1.0f);
         }));
  for (int k : {2, 4}) {
    int c = n / k;
    printf("D acc true  [0,n/%d) %.2f (x%d = %.2f)\n", k, timeit([&] {
             tiled_static_kernel<Vec4, 256, true>
                 <<<grid(c), 256>>>(pos, nullptr, nullptr, acc, n, 0, c, e2, 0.016f, 1.0f);
           }),
           k, 0.0f);
  }
  for (int k : {2, 4}) {
    int c = n / k;
    float t = timeit([&] {
      tiled_static_kernel<Vec4, 256, true>
          <<<grid(c), 256>>>(pos, nullptr, nullptr, acc, n, n - c, n, e2, 0.016f, 1.0f);
    });
    printf("E acc true  last 1/%d %.2f, per n %.2f\n", k, t, t * k);
  }
  for (int b : {128, 512}) {
    int c = n / 4;
    float t = b == 128 ? timeit([&] {
      tiled_static_kernel<Vec4, 128, true>
          <<<(c + 127) / 128, 128>>>(pos, nullptr, nullptr, acc, n, 0, c, e2, 0.016f, 1.0f);
    })
                       : timeit([&] {
                           tiled_static_kernel<Vec4, 512, true><<<(c + 511) / 512, 512>>>(
                               pos, nullptr, nullptr, acc, n, 0, c, e2, 0.016f, 1.0f);
                         });
    float w = b == 128 ? timeit([&] {
      tiled_static_kernel<Vec4, 128, false>
          <<<(n + 127) / 128, 128>>>(pos, out, vel, nullptr, n, 0, n, e2, 0.016f, 1.0f);
    })
                       : timeit([&] {
                           tiled_static_kernel<Vec4, 512, false><<<(n + 511) / 512, 512>>>(
                               pos, out, vel, nullptr, n, 0, n, e2, 0.016f, 1.0f);
                         });
    printf("F block %d: whole fused %.2f, quarter rows %.2f (x4 %.2f)\n", b, w, t, 4 * t);
  }
  {
    printf("V3 whole fused %.2f\n", timeit([&] {
             v3_kernel<Vec4, 256>
                 <<<grid(n), 256>>>(pos, n, pos, n, out, vel, nullptr, e2, 0.016f, 1.0f);
           }));
    printf("V3 whole acc   %.2f\n", timeit([&] {
             v3_kernel<Vec4, 256>
                 <<<grid(n), 256>>>(pos, n, pos, n, nullptr, nullptr, acc, e2, 0.016f, 1.0f);
           }));
    int c = n / 4;
    float t = timeit([&] {
      v3_kernel<Vec4, 256><<<grid(c), 256>>>(pos, n, pos + (n - c), c, nullptr, nullptr,
                                             acc + (n - c), e2, 0.016f, 1.0f);
    });
    printf("V3 last quarter %.2f per n %.2f\n", t, 4 * t);
    printf("V4 whole acc   %.2f\n",
           timeit([&] { v4_kernel<Vec4, 256><<<grid(n), 256>>>(pos, acc, n, 0, n, e2); }));
    t = timeit([&] { v4_kernel<Vec4, 256><<<grid(c), 256>>>(pos, acc, n, n - c, n, e2); });
    printf("V4 last quarter %.2f per n %.2f\n", t, 4 * t);
  }
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
