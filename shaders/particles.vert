#version 330 core
// (shaders/colormap.glsl is inserted after this line.)
// Bodies as point sprites: size attenuated with distance, colour from a quantity through a palette
// (gfx/colormap.h and gfx/sprite.h are the same maths for the CUDA splat and its CPU reference).
layout(location = 0) in vec4 a_pos;  // xyz, w = mass
layout(location = 1) in vec4 a_vel;  // xyz, w = radius
layout(location = 2) in float a_value;  // the stored quantity (acceleration, density, ...)

uniform mat4 u_view;
uniform mat4 u_proj;
uniform float u_radius;        // sprite radius in world units
uniform float u_px_per_unit;   // pixels per world unit at view distance 1
uniform float u_intensity;     // peak brightness of one sprite
uniform float u_mass_ref;      // the mean mass: heavier bodies (galaxy cores) draw larger
uniform int u_spheres;         // 1: a body whose ball (radius a_vel.w) is larger than its sprite
                               // is drawn as that ball (collisions on)
uniform float u_sphere_intensity;  // a ball's brightness

out vec3 v_color;
out float v_energy;
out float v_soft;  // 0: a star's tight core and halo; 1: a heavy body's diffuse bulge glow
flat out int v_sphere;

vec3 body_color() {
  return value_color(u_source == ORRERY_SOURCE_VELOCITY     ? length(a_vel.xyz)
                     : u_source == ORRERY_SOURCE_POSITION_W ? a_pos.w
                                                            : a_value);
}

void main() {
  vec4 view_pos = u_view * vec4(a_pos.xyz, 1.0);
  gl_Position = u_proj * view_pos;
  float depth = max(-view_pos.z, 1e-3);
  float heavy = clamp(pow(a_pos.w / max(u_mass_ref, 1e-30), 1.0 / 3.0), 1.0, 16.0);
  v_soft = smoothstep(1.5, 4.0, heavy);
  // The diameter in pixels: the sprite radius grown with the mass, or (collisions on) the body's
  // ball where that is larger than a light body's sprite - a ball too small to see stays a star,
  // a clump that has grown by merging shows as a ball.
  float star = 2.0 * u_radius * u_px_per_unit / depth;  // a light body's sprite
  float sprite = star * heavy;
  float ball = 2.0 * max(a_vel.w, 0.0) * u_px_per_unit / depth;
  v_sphere = u_spheres == 1 && ball > star ? 1 : 0;
  float size = v_sphere == 1 ? ball : sprite;
  float drawn = clamp(size, 2.0, v_sphere == 1 ? 256.0 : 128.0);
  gl_PointSize = drawn;
  // Sprites smaller than 2 px are drawn at 2 px and dimmed by the lost area: no shimmer far away.
  v_energy = (v_sphere == 1 ? u_sphere_intensity : u_intensity * mix(1.0, 1.5, v_soft)) *
             min(1.0, (size * size) / (drawn * drawn));
  // Heavy bodies (galaxy cores) glow warm white whatever their value: a bulge, not a star. Not
  // where the quantity's record says the colour is the point (mass, origin).
  float warm = u_glow == 1 ? v_soft : 0.0;
  v_color = mix(body_color(), vec3(1.0, 0.80, 0.52), warm);
}
