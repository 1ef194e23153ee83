// The vertex shader every shader-GEMM pass shares: one triangle that covers the whole viewport,
// made from gl_VertexID alone (no vertex buffer; the core profile still wants a VAO bound).
// The engine sets the viewport (and scissor) to the rectangle of output texels a pass writes,
// so "the quad" of the 2000s papers is this triangle clipped to the viewport. Fragment shaders
// find their output texel from gl_FragCoord, which is in window coordinates: the same texel
// numbering in every pass, whatever the viewport.
#version 330 core

void main() {
  // (-1,-1), (3,-1), (-1,3): a triangle whose clipped part is exactly the [-1,1]^2 square.
  vec2 corner = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
  gl_Position = vec4(corner, 0.0, 1.0);
}
