#version 330 core
// A trail's segment, added into the HDR target.
flat in vec3 v_color;
out vec4 frag_color;

void main() { frag_color = vec4(v_color, 0.0); }
