// The watching tools' maths on the CPU: palettes and scales, per-body quantities and the legend's
// percentile range, the density grid, origin labels, trails and picking.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <vector>

#include "gfx/color_range.h"
#include "gfx/colormap.h"
#include "gfx/splat.h"
#include "gfx/trails_picking.h"
#include "orrery/fields.h"
#include "orrery/input.h"
#include "orrery/presets.h"
#include "orrery/simulation.h"
#include "splat_support.h"
#include "support.h"

namespace orrery {
namespace {

using gfx::ColorMap;

TEST(ColorMap, PalettesEndAtTheirPublishedColours) {
  float r, g, b;
  gfx::palette_rgb(static_cast<int>(gfx::Palette::viridis), 0.0f, r, g, b);
  EXPECT_FLOAT_EQ(r, 0.267004f);
  EXPECT_FLOAT_EQ(g, 0.004874f);
  EXPECT_FLOAT_EQ(b, 0.329415f);
  gfx::palette_rgb(static_cast<int>(gfx::Palette::viridis), 1.0f, r, g, b);
  EXPECT_FLOAT_EQ(r, 0.993248f);
  EXPECT_FLOAT_EQ(g, 0.906157f);
  EXPECT_FLOAT_EQ(b, 0.143936f);
  gfx::palette_rgb(static_cast<int>(gfx::Palette::viridis), 128.0f / 255.0f, r, g, b);  // entry 128
  EXPECT_FLOAT_EQ(r, 0.127568f);
  EXPECT_FLOAT_EQ(g, 0.566949f);
  gfx::palette_rgb(static_cast<int>(gfx::Palette::magma), 1.0f, r, g, b);
  EXPECT_FLOAT_EQ(r, 0.987053f);
  EXPECT_FLOAT_EQ(b, 0.749504f);
  // Perceptually uniform maps grow steadily lighter: the luminance never falls along them.
  for (int pal : {1, 2, 3, 4, 5}) {
    float last = -1.0f;
    for (int k = 0; k <= 64; ++k) {
      gfx::palette_rgb(pal, k / 64.0f, r, g, b);
      const float y = 0.2126f * r + 0.7152f * g + 0.0722f * b;
      EXPECT_GE(y, last - 1e-3f) << "palette " << pal << " at " << k / 64.0f;
      last = y;
    }
  }
}

TEST(ColorMap, LinearAndLogScalesPlaceValues) {
  ColorMap c;
  c.lo = 2.0f, c.hi = 6.0f;
  EXPECT_FLOAT_EQ(gfx::color_coordinate(c, 4.0f), 0.5f);
  EXPECT_FLOAT_EQ(gfx::color_coordinate(c, -10.0f), 0.0f);  // clamped
  EXPECT_FLOAT_EQ(gfx::color_coordinate(c, 10.0f), 1.0f);
  EXPECT_FLOAT_EQ(gfx::color_coordinate(c, NAN), 0.0f);
  c.log_scale = 1, c.lo = 1e-3f, c.hi = 1e3f;
  EXPECT_NEAR(gfx::color_coordinate(c, 1.0f), 0.5f, 1e-6f);
  EXPECT_NEAR(gfx::color_coordinate(c, 1e-2f), 1.0f / 6.0f, 1e-6f);
  EXPECT_FLOAT_EQ(gfx::color_coordinate(c, 0.0f), 0.0f);  // below a log scale: its low end
}

// The quantities' records: each is its number, parses by name, starts with a palette that exists,
// and its map reads where the record says (a label has no unit and no glow).
TEST(ColorMap, EachQuantityRecordIsWhole) {
  std::set<std::string> names;
  for (std::size_t k = 0; k < quantity_table().size(); ++k) {
    const QuantityInfo& q = quantity_table()[k];
    SCOPED_TRACE(q.name);
    EXPECT_EQ(static_cast<std::size_t>(q.id), k);
    EXPECT_TRUE(names.insert(q.name).second);
    EXPECT_EQ(parse_quantity(q.name), q.id);
    EXPECT_STREQ(gfx::k_palette_names[gfx::palette_index(q.palette)], q.palette);
    EXPECT_EQ(quantity_stored(q.id), q.source == ValueSource::stored);
    if (q.label) {
      EXPECT_STREQ(q.unit, "");
    }
    const ColorMap c = gfx::color_map_of(q);
    EXPECT_EQ(c.label == 1, q.label);
    EXPECT_EQ(c.glow == 1, q.glow);
    EXPECT_EQ(gfx::color_needs_values(c), q.source == ValueSource::stored);
  }
  EXPECT_THROW(parse_quantity("colour"), InputError);
}

TEST(ColorMap, SpeedAndMassComeFromTheStateOtherQuantitiesFromTheirValues) {
  ColorMap c;
  const Vec4 pos{0, 0, 0, 7.0f}, vel{3.0f, 4.0f, 0, 0};
  c = gfx::color_map_of(quantity_info(Quantity::speed));
  EXPECT_FLOAT_EQ(gfx::body_value(c, pos, vel, 99.0f), 5.0f);
  EXPECT_FALSE(gfx::color_needs_values(c));
  c = gfx::color_map_of(quantity_info(Quantity::mass));
  EXPECT_FLOAT_EQ(gfx::body_value(c, pos, vel, 99.0f), 7.0f);
  EXPECT_FALSE(gfx::color_needs_values(c));
  for (Quantity q :
       {Quantity::acceleration, Quantity::density, Quantity::potential, Quantity::origin}) {
    c = gfx::color_map_of(quantity_info(q));
    EXPECT_FLOAT_EQ(gfx::body_value(c, pos, vel, 99.0f), 99.0f) << to_string(q);
    EXPECT_TRUE(gfx::color_needs_values(c));
  }
  // Origin labels take their own colours, whatever the palette.
  c = gfx::color_map_of(quantity_info(Quantity::origin));
  float r, g, b;
  gfx::body_rgb(c, 1.0f, r, g, b);
  EXPECT_FLOAT_EQ(r, gfx::k_origin_host[3]);
  gfx::body_rgb(c, 9.0f, r, g, b);  // label 9 wraps to colour 1
  EXPECT_FLOAT_EQ(r, gfx::k_origin_host[3]);
  // A sprite coloured by mass keeps its mass colour even when heavy (no warm-white bulge).
  gfx::SpriteParams p = test::camera_params(320, 200);
  p.color = gfx::color_map_of(quantity_info(Quantity::mass));
  p.color.palette = static_cast<int>(gfx::Palette::viridis);
  p.color.lo = 1.0f, p.color.hi = 64.0f;
  gfx::Sprite s;
  ASSERT_TRUE(gfx::make_sprite({0, 0, 30, 64}, {0, 0, 0, 0}, p, s));
  EXPECT_FLOAT_EQ(s.r, 0.993248f);
  EXPECT_FLOAT_EQ(s.b, 0.143936f);
}

TEST(ColorMap, NamesParseAndBadOnesAreRefused) {
  for (const std::string& n : quantity_names()) EXPECT_EQ(to_string(parse_quantity(n)), n);
  EXPECT_THROW(parse_quantity("nope"), InputError);
  EXPECT_STREQ(quantity_unit(Quantity::acceleration), "length/time^2");
}

TEST(Legend, RangeIsThePercentilesOfTheData) {
  std::vector<float> v;
  for (int i = 1; i <= 1000; ++i) v.push_back(static_cast<float>(i));
  v.push_back(NAN);  // ignored
  v.push_back(std::numeric_limits<float>::infinity());
  float lo = 0, hi = 0;
  ASSERT_TRUE(gfx::percentile_range(v, 1.0f, 99.0f, false, lo, hi));
  // Sorted, the 1st percentile is element round(0.01 * 999) = 10 (value 11), the 99th 989 (990).
  EXPECT_FLOAT_EQ(lo, 11.0f);
  EXPECT_FLOAT_EQ(hi, 990.0f);
  ASSERT_TRUE(gfx::percentile_range(v, 0.0f, 100.0f, false, lo, hi));
  EXPECT_FLOAT_EQ(lo, 1.0f);
  EXPECT_FLOAT_EQ(hi, 1000.0f);
  // Log: only values > 0 count.
  std::vector<float> w{-5.0f, 0.0f, 2.0f, 8.0f};
  ASSERT_TRUE(gfx::percentile_range(w, 0.0f, 100.0f, true, lo, hi));
  EXPECT_FLOAT_EQ(lo, 2.0f);
  EXPECT_FLOAT_EQ(hi, 8.0f);
  // A constant gets a range around it; nothing to fit is said.
  ASSERT_TRUE(gfx::percentile_range(std::vector<float>(10, 3.0f), 1.0f, 99.0f, false, lo, hi));
  EXPECT_LT(lo, 3.0f);
  EXPECT_GT(hi, 3.0f);
  EXPECT_FALSE(gfx::percentile_range({-1.0f, 0.0f}, 1.0f, 99.0f, true, lo, hi));
}

TEST(Quantities, SimulationGivesSpeedAccelerationPotentialAndMassOnTheHost) {
  const BodyState s = make_preset(Preset::plummer, 301, 5);
  auto sys = test::make_simulation("cpu", s, SimParams{}, Integrator::euler);
  const int n = s.size();
  std::vector<float> out(static_cast<std::size_t>(n));
  const float eps = SimParams{}.softening;
  sys->quantity(Quantity::acceleration, sys->bodies(), out.data());
  for (int i : {0, 17, 300}) {
    const Vec3 a = host_body_acceleration(s.pos.data(), n, i, eps);
    EXPECT_NEAR(out[i], std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z), 1e-4f * out[i]) << i;
  }
  sys->quantity(Quantity::potential, sys->bodies(), out.data());
  double phi = 0;  // body 5's potential depth, in double
  for (int j = 0; j < n; ++j) {
    if (j == 5) continue;
    const double dx = s.pos[j].x - s.pos[5].x, dy = s.pos[j].y - s.pos[5].y,
                 dz = s.pos[j].z - s.pos[5].z;
    phi += s.pos[j].w / std::sqrt(dx * dx + dy * dy + dz * dz + eps * eps);
  }
  EXPECT_NEAR(out[5], phi, 1e-4 * phi);
  sys->quantity(Quantity::speed, sys->bodies(), out.data());
  EXPECT_FLOAT_EQ(out[9], std::sqrt(s.vel[9].x * s.vel[9].x + s.vel[9].y * s.vel[9].y +
                                    s.vel[9].z * s.vel[9].z));
  sys->quantity(Quantity::mass, sys->bodies(), out.data());
  EXPECT_FLOAT_EQ(out[9], s.pos[9].w);
  // A strided sample to the host: bodies 0, 4, 8, ... (a colour range's fit).
  std::vector<float> sample((n + 3) / 4, -1.0f);
  sys->quantity_to_host(Quantity::speed, sys->bodies(), sample.data(), 4);
  for (std::size_t k = 0; k < sample.size(); ++k) {
    const Vec4& v = s.vel[4 * k];
    EXPECT_FLOAT_EQ(sample[k], std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z)) << k;
  }
  EXPECT_THROW(sys->quantity(Quantity::origin, sys->bodies(), out.data()),
               std::logic_error);
}

TEST(Quantities, TwoBodyAccelerationIsAnalytic) {
  const BodyState s = kepler_pair(0.0, 0.0);  // separation 1, masses 1/2
  const Vec3 a = host_body_acceleration(s.pos.data(), 2, 0, 1e-4f);
  EXPECT_NEAR(a.x, 0.5f, 1e-5f);  // m / r^2 towards the other body
  EXPECT_NEAR(a.y, 0.0f, 1e-6f);
  auto sys = test::make_simulation("cpu", s, SimParams{}, Integrator::euler);
  const Vec3d c = sys->centre_of_mass(sys->bodies());
  EXPECT_NEAR(c.x, 0.0f, 1e-7f);
  const Vec3 b = sys->read_body(sys->bodies(), 0).acc;  // at the Simulation's softening, 0.1
  EXPECT_NEAR(b.x, 0.5f / std::pow(1.01f, 1.5f), 1e-5f);
}

TEST(Quantities, DensityIsHigherInAClumpAndRightOnAnEvenGrid) {
  // An even lattice of 20^3 bodies with spacing 1: 27 cells around a body hold about 27 * 8
  // bodies in 27 cell volumes of 8: density 1 in the interior.
  std::vector<Vec4> pos;
  for (int z = 0; z < 20; ++z)
    for (int y = 0; y < 20; ++y)
      for (int x = 0; x < 20; ++x) pos.push_back({x + 0.5f, y + 0.5f, z + 0.5f, 1.0f});
  std::vector<float> d(pos.size());
  host_density(pos.data(), static_cast<int>(pos.size()), d.data());
  const std::size_t centre = (10 * 20 + 10) * 20 + 10;  // the body at (10.5, 10.5, 10.5)
  EXPECT_NEAR(d[centre], 1.0f, 0.35f);
  EXPECT_LT(d[0], d[centre]);  // a corner: its cells reach outside the lattice
  // A clump of 1000 bodies in a unit cube beside a sparse cloud: the clump is denser.
  std::vector<Vec4> mixed;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f), wide(-30.0f, 30.0f);
  for (int i = 0; i < 1000; ++i) mixed.push_back({unit(rng), unit(rng), unit(rng), 1.0f});
  for (int i = 0; i < 1000; ++i) mixed.push_back({wide(rng), wide(rng), wide(rng), 1.0f});
  std::vector<float> m(mixed.size());
  host_density(mixed.data(), static_cast<int>(mixed.size()), m.data());
  std::vector<float> cloud(m.begin() + 1000, m.end());
  std::nth_element(cloud.begin(), cloud.begin() + 500, cloud.end());
  EXPECT_GT(*std::min_element(m.begin(), m.begin() + 1000), 10.0f * cloud[500]);
}

TEST(Origin, LabelsFollowThePresetsParts) {
  const BodyState c = make_preset(Preset::collision, 101, 1);
  const Preset collision = Preset::collision;
  const std::vector<float> lc = origin_labels(&collision, c);
  EXPECT_EQ(lc[0], 0.0f);
  EXPECT_EQ(lc[50], 0.0f);
  EXPECT_EQ(lc[51], 1.0f);
  EXPECT_EQ(lc[100], 1.0f);
  EXPECT_EQ(origin_names(&collision).size(), 2u);
  const BodyState p = make_preset(Preset::plummer, 4000, 2);
  const std::vector<float> lp = origin_labels(nullptr, p);
  std::vector<int> count(8, 0);
  for (std::size_t i = 0; i < lp.size(); ++i) {
    const int k = static_cast<int>(lp[i]);
    ASSERT_GE(k, 0);
    ASSERT_LT(k, 8);
    ++count[static_cast<std::size_t>(k)];
  }
  for (int k = 0; k < 8; ++k) EXPECT_GT(count[k], 300) << "octant " << k;  // ~500 each
}

TEST(Trails, RingHoldsTheLastKPositionsAfterKPlusThreeSteps) {
  // Bodies 0..4 at x = step; K = 4 slots; sample bodies 1 and 3.
  const int k = 4, n = 5;
  const int sample[2] = {1, 3};
  std::vector<Vec4> ring(static_cast<std::size_t>(k * 2));
  ColorMap c;
  int head = 0;
  for (int step = 0; step < k + 3; ++step) {
    std::vector<Vec4> pos(n), vel(n, Vec4{0, 0, 0, 0});
    for (int i = 0; i < n; ++i) pos[i] = {static_cast<float>(step), static_cast<float>(i), 0, 1};
    gfx::trail_append_cpu(pos.data(), vel.data(), nullptr, n, sample, c, ring.data(), 2, head);
    head = (head + 1) % k;
  }
  // The newest (step 6) is in slot head - 1, then 5, 4, 3 going back.
  for (int age = 0; age < k; ++age) {
    const int slot = ((head - 1 - age) % k + k) % k;
    for (int b = 0; b < 2; ++b) {
      EXPECT_FLOAT_EQ(ring[slot * 2 + b].x, static_cast<float>(k + 2 - age));
      EXPECT_FLOAT_EQ(ring[slot * 2 + b].y, static_cast<float>(sample[b]));
    }
  }
  // A sampled body beyond the bodies there are (merges) is NaN and draws nothing.
  std::vector<Vec4> pos(2, Vec4{0, 0, 0, 1}), vel(2, Vec4{0, 0, 0, 0});
  gfx::trail_append_cpu(pos.data(), vel.data(), nullptr, 2, sample, c, ring.data(), 2, 0);
  EXPECT_TRUE(std::isnan(ring[1].x));
}

TEST(Trails, SegmentsDrawFadingLinesBetweenThePositions) {
  gfx::SpriteParams p = test::camera_params(200, 120);
  // One body moving right along the x axis at z = 0 (the view's centre plane).
  std::vector<Vec4> ring{{-2, 0, 0, 1}, {0, 0, 0, 1}, {2, 0, 0, 1}};  // slots 0, 1, 2
  gfx::TrailRing t{ring.data(), 1, 3, 0, 3};  // head 0: the newest is slot 2
  std::vector<float> img(4 * 200 * 120, 0.0f);
  gfx::trail_splat_cpu(t, p, 1.0f, img.data());
  // A horizontal line through the middle row; brighter at the newer end; nothing in alpha.
  float sx0, sy0, d, sx2, sy2;
  ASSERT_TRUE(gfx::project_point(p, -2, 0, 0, sx0, sy0, d));
  ASSERT_TRUE(gfx::project_point(p, 2, 0, 0, sx2, sy2, d));
  const int row = static_cast<int>(std::floor(sy0));
  const auto at = [&](int x, int c) { return img[4 * (row * 200 + x) + c]; };
  const int newer = static_cast<int>(std::floor(sx2)) - 1, older = static_cast<int>(sx0) + 1;
  EXPECT_GT(at(newer, 0), 0.0f);
  EXPECT_GT(at(older, 0), 0.0f);
  EXPECT_GT(at(newer, 0), at(older, 0));
  float lit = 0, alpha = 0;
  for (int i = 0; i < 200 * 120; ++i) lit += img[4 * i] > 0 ? 1 : 0, alpha += img[4 * i + 3];
  EXPECT_NEAR(lit, sx2 - sx0, 2.0f);  // one pixel per column
  EXPECT_EQ(alpha, 0.0f);
  // A segment longer than the limit (a wrap) is not drawn.
  std::vector<Vec4> wrap{{-30, 0, 0, 1}, {30, 0, 0, 1}};
  gfx::TrailRing w{wrap.data(), 1, 2, 0, 2};
  p = test::camera_params(2000, 1200);  // the ends 1700 px apart
  img.assign(4 * 2000 * 1200, 0.0f);
  gfx::trail_splat_cpu(w, p, 1.0f, img.data());
  float sum = 0;
  for (float v : img) sum += v;
  EXPECT_EQ(sum, 0.0f);
}

TEST(Picking, FindsTheBodyNearestTheClickWithinTheRadius) {
  gfx::SpriteParams p = test::camera_params(400, 300);
  std::vector<Vec4> pos{{0, 0, 0, 1}, {5, 3, 0, 1}, {-5, 0, 0, 1}, {5, 3, 20, 1}};
  float x, y, d;
  ASSERT_TRUE(gfx::project_point(p, 5, 3, 0, x, y, d));
  // Body 3 sits in front of body 1 but projects elsewhere (nearer the eye, off its line).
  EXPECT_EQ(gfx::pick_cpu(pos.data(), 4, p, x + 2.0f, y - 1.0f, 8.0f), 1);
  EXPECT_EQ(gfx::pick_cpu(pos.data(), 4, p, x + 30.0f, y, 8.0f), -1);  // nobody that close
  // Two bodies on the same line of sight: the nearer one to the eye wins.
  std::vector<Vec4> line{{0, 0, -10, 1}, {0, 0, 10, 1}};
  ASSERT_TRUE(gfx::project_point(p, 0, 0, 0, x, y, d));
  EXPECT_EQ(gfx::pick_cpu(line.data(), 2, p, x, y, 8.0f), 1);
  // Behind the eye: never picked.
  std::vector<Vec4> behind{{0, 0, 60, 1}};
  EXPECT_EQ(gfx::pick_cpu(behind.data(), 1, p, x, y, 1000.0f), -1);
}

TEST(Splat, ColourByAStoredQuantityNeedsItsValues) {
  gfx::SpriteParams p = test::camera_params(64, 48);
  p.color = gfx::color_map_of(quantity_info(Quantity::density));
  const Vec4 body{0, 0, 0, 1};
  std::vector<float> img(4 * 64 * 48);
  EXPECT_THROW(gfx::splat_cpu(&body, &body, 1, p, img.data()), std::invalid_argument);
  const float value = 3.0f;
  gfx::splat_cpu(&body, &body, 1, p, img.data(), &value);
  p.color.lo = 0.0f, p.color.hi = 3.0f;  // value at the top of the classic palette: red
  gfx::splat_cpu(&body, &body, 1, p, img.data(), &value);
  const float* centre = &img[4 * (24 * 64 + 32)];
  EXPECT_GT(centre[0], 2.0f * centre[2]);
}

}  // namespace
}  // namespace orrery
