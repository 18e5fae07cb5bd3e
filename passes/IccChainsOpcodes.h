//===- IccChainsOpcodes.h - ICC: opcode classes by name -------*- C++ -*-===//
///
/// \file
/// Opcode-name classes of the ICC port-bound terms (IccChains.h) that need
/// no LLVM library: the unit tests check them without the plugin. Internal
/// to passes/ (and test/unit).
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_PASSES_ICCCHAINSOPCODES_H
#define SEGTIME_PASSES_ICCCHAINSOPCODES_H

#include <string_view>

namespace segtime {
namespace icc {

/// What a masked vector move of x86 AVX/AVX2 is, by LLVM opcode name.
enum class MaskedMove {
  None,  ///< not a VEX masked move (AVX-512 masked moves {k} included)
  Store, ///< [V]MASKMOVPS/PD, VPMASKMOVD/Q to memory: VMASKMOVPSYmr, VPMASKMOVDmr
  Load,  ///< the same from memory: VMASKMOVPSYrm, VPMASKMOVQrm
};

/// The masked-move kind of an x86 opcode named Name. Only the VEX forms
/// (vmaskmovps/pd, vpmaskmovd/q; 128 and 256 bits) are classed: LLVM 19's
/// Zen 4 scheduling model (also znver5's) makes their stores microcoded
/// sequences (vmaskmovps ymm: 42 micro-ops, 12 cycles of the store unit),
/// while it prices their loads, the AVX-512 masked moves ({k}: VMOVUPSZmrk)
/// and the non-temporal byte-masked maskmovdqu (MASKMOVDQU64) as one
/// micro-op each. AArch64 names never match.
inline MaskedMove maskedMove(std::string_view Name) {
  std::string_view N = Name;
  if (N.substr(0, 8) == "VMASKMOV") {
    N.remove_prefix(8);
    if (N.substr(0, 2) != "PS" && N.substr(0, 2) != "PD")
      return MaskedMove::None; // VMASKMOVDQU64
  } else if (N.substr(0, 9) == "VPMASKMOV") {
    N.remove_prefix(9);
    if (N.substr(0, 1) != "D" && N.substr(0, 1) != "Q")
      return MaskedMove::None;
  } else {
    return MaskedMove::None;
  }
  N.remove_prefix(N[0] == 'P' ? 2 : 1); // the element type: PS, PD, D, Q
  if (N.substr(0, 1) == "Y")
    N.remove_prefix(1);
  if (N == "mr")
    return MaskedMove::Store;
  if (N == "rm")
    return MaskedMove::Load;
  return MaskedMove::None;
}

} // namespace icc
} // namespace segtime

#endif
