#pragma once
/// The one include for OpenGL 4.5 core entry points (GLAD 2, generated at build time).
/// Include this before any GLFW header.
#include <glad/gl.h>
