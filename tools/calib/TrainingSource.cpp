//===- TrainingSource.cpp - Training kernels for `segtime calibrate` -------===//
///
/// \file
/// The training kernels (see TrainingSource.h), whose C text is the file
/// kernels/Training.c (KernelSources.h). Every kernel is preceded by
/// a one-line comment "/* train_NAME: description */", which
/// trainingBenches() reads.
///
//===----------------------------------------------------------------------===//
#include "tools/calib/TrainingSource.h"
#include "tools/calib/KernelSources.h"

#include <sstream>

namespace segtime {

const std::string &trainingSource() {
  static const std::string Source = kernel::training();
  return Source;
}

std::vector<BenchInfo> trainingBenches() {
  std::vector<BenchInfo> B;
  std::istringstream In(trainingSource());
  const std::string Tag = "/* train_";
  for (std::string Line; std::getline(In, Line);) {
    if (Line.compare(0, Tag.size(), Tag) != 0)
      continue;
    size_t Colon = Line.find(':'), End = Line.rfind(" */");
    BenchInfo I;
    I.Function = Line.substr(3, Colon - 3);
    I.What = Line.substr(Colon + 2, End - Colon - 2);
    I.Train = true;
    B.push_back(I);
  }
  return B;
}

} // namespace segtime
