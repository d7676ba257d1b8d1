#version 330 core
// (shaders/colormap.glsl is inserted after this line.)
// Trails as GL lines with no vertex attributes: vertex 2s + e of segment s = (age, body) reads the
// ring (a buffer texture of the last K positions of M bodies, w = the value coloured by) at the
// newer (e = 0) or older (e = 1) position; brightness fades with age.
uniform samplerBuffer u_ring;
uniform int u_m;     // bodies in the ring
uniform int u_k;     // slots
uniform int u_head;  // the next slot to write: the newest is u_head - 1
uniform mat4 u_view;
uniform mat4 u_proj;
uniform float u_intensity;
flat out vec3 v_color;

void main() {
  int seg = gl_VertexID / 2;
  int body = seg % u_m, age = seg / u_m;
  int slot = ((u_head - 1 - age - gl_VertexID % 2) % u_k + u_k) % u_k;
  vec4 p = texelFetch(u_ring, slot * u_m + body);
  gl_Position = u_proj * u_view * vec4(p.xyz, 1.0);
  // The segment's colour and brightness are its newer end's (flat in the fragment shader).
  vec4 newer = texelFetch(u_ring, (((u_head - 1 - age) % u_k + u_k) % u_k) * u_m + body);
  float fade = 1.0 - float(age) / float(u_k - 1);
  v_color = value_color(newer.w) * (u_intensity * fade);
}
