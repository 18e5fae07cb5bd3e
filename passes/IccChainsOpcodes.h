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

#include <cstdint>
#include <string_view>
#include <utility>

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

/// Bytes that the memory operand of an x86 instruction printed in Intel
/// syntax (X86IntelInstPrinter: "vaddps ymm4, ymm4, ymmword ptr [r12 +
/// 4*rax - 4]") accesses, from its size keyword: byte 1, word 2, dword 4,
/// qword 8, tbyte 10, xmmword 16, ymmword 32, zmmword 64; 0 when the text
/// names no size (an opaque operand: lea, prefetch) or no memory operand.
/// A broadcast's element ("dword ptr [rax]{1to8}") is what it loads.
inline unsigned intelOperandBytes(std::string_view Text) {
  size_t Ptr = Text.find(" ptr ");
  if (Ptr == std::string_view::npos)
    return 0;
  std::string_view Head = Text.substr(0, Ptr);
  size_t Space = Head.find_last_of(" \t,");
  std::string_view Word = Space == std::string_view::npos ? Head : Head.substr(Space + 1);
  constexpr std::pair<std::string_view, unsigned> Sizes[] = {
      {"byte", 1},     {"word", 2},     {"dword", 4},    {"qword", 8},
      {"tbyte", 10},   {"xmmword", 16}, {"ymmword", 32}, {"zmmword", 64}};
  for (auto [Name, Bytes] : Sizes)
    if (Word == Name)
      return Bytes;
  return 0;
}

/// The expected share of the executions of a Width-byte access at byte
/// displacement Disp from a base register whose value is a multiple of
/// BaseAlign (a power of two), uniformly distributed modulo Line, that
/// touch two Line-byte cache lines: of the Line / BaseAlign positions
/// (Disp mod BaseAlign) + k BaseAlign, k = 0 .. Line / BaseAlign - 1, those
/// with position + Width > Line. A loop that walks an array by whole
/// vectors from an address of unknown position visits these positions
/// alike (docs/models.md "ICC" 4f): for Width = 32 and BaseAlign = 16 (glibc
/// malloc's alignment, x86-64 psABI arrays of 16 B or more) 1/4 when Disp
/// is a multiple of 16, else 1/2 (blur9's loads at j - 1, j + 1); 0 for an
/// access no wider than BaseAlign at a multiple of its width. BaseAlign at
/// least Line: the one position Disp mod Line. Width 0 (unknown): 0.
inline double lineCrossShare(unsigned Width, int64_t Disp, unsigned BaseAlign = 16,
                             unsigned Line = 64) {
  if (!Width || !Line || !BaseAlign)
    return 0;
  if (Width > Line)
    return 1;
  unsigned Step = BaseAlign < Line ? BaseAlign : Line;
  int64_t First = Disp % int64_t(Step);
  if (First < 0)
    First += Step;
  unsigned Positions = Line / Step, Crossing = 0;
  for (unsigned K = 0; K < Positions; ++K) {
    int64_t At = First + int64_t(K) * Step;
    Crossing += At + Width > Line;
  }
  return double(Crossing) / Positions;
}

/// Whether an x86 opcode named Name is an aligned vector move (movaps,
/// movapd, movdqa, movntdqa in every encoding: VMOVAPSYrm,
/// VMOVDQA64Z256rm, MOVNTDQArm), which faults on an address not aligned to
/// its width and so never crosses a line.
inline bool alignedVectorMove(std::string_view Name) {
  for (std::string_view Op : {"MOVAPS", "MOVAPD", "MOVDQA", "MOVNTDQA"})
    if (Name.find(Op) != std::string_view::npos)
      return true;
  return false;
}

} // namespace icc
} // namespace segtime

#endif
