#version 330 core
// One colour, blended over the tone-mapped picture.
uniform vec4 u_color;
out vec4 o_color;
void main() { o_color = u_color; }
