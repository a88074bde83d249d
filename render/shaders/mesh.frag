#version 450 core
// Two-sided Lambert + Blinn-Phong with a hemisphere ambient; back faces get
// their own colour so the inside of a garment reads as such.
in vec3 worldPosition;
in vec3 worldNormal;

layout(location = 1) uniform vec3 frontColor;   // linear RGB
layout(location = 2) uniform vec3 backColor;    // linear RGB
layout(location = 3) uniform vec3 eyePosition;  // m
layout(location = 4) uniform int checker;       // 1: modulate by a 0.25 m ground checker

out vec4 fragColor;

void main() {
  vec3 n = normalize(worldNormal);
  vec3 toEye = normalize(eyePosition - worldPosition);
  bool front = gl_FrontFacing;
  if (!front) n = -n;
  vec3 base = front ? frontColor : backColor;
  if (checker == 1) {
    ivec2 cell = ivec2(floor(worldPosition.xz / 0.25));
    base *= ((cell.x + cell.y) & 1) == 0 ? 1.0 : 0.8;
  }
  vec3 keyDir = normalize(vec3(0.5, 1.0, 0.8));
  vec3 fillDir = normalize(vec3(-0.7, 0.4, -0.3));
  float key = max(dot(n, keyDir), 0.0);
  float fill = max(dot(n, fillDir), 0.0);
  float hemi = 0.5 + 0.5 * n.y;
  vec3 h = normalize(keyDir + toEye);
  float specular = pow(max(dot(n, h), 0.0), 48.0) * 0.15;
  vec3 color = base * (0.85 * key + 0.25 * fill + mix(0.10, 0.28, hemi)) + vec3(specular);
  fragColor = vec4(pow(color, vec3(1.0 / 2.2)), 1.0);
}
