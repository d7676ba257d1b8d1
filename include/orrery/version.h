// The one version of Orrery: the CMake project's number, with the git description of the checkout
// it was built from. Both programs' --version, Python's orrery.__version__ and the files Orrery
// writes (its own format's header, HDF5's Orrery group) say it.
#pragma once

#include <string>

namespace orrery {

// "0.1.0"
const char* version_number();
// "g702cc34-dirty" style (git describe), "" outside a git checkout.
const char* version_git();
// "0.1.0 (git 702cc34-dirty)", or "0.1.0" outside a checkout.
std::string version_description();
// PEP 440: "0.1.0+g702cc34.dirty", or "0.1.0".
std::string version_pep440();

}  // namespace orrery
