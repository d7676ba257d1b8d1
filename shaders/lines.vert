#version 330 core
// Line segments in world space (the tree overlay's cell edges), through the scene's camera.
layout(location = 0) in vec3 a_pos;
uniform mat4 u_view;
uniform mat4 u_proj;
void main() { gl_Position = u_proj * u_view * vec4(a_pos, 1.0); }
