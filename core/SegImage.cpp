//===- SegImage.cpp - Binary image of a SEG held in memory -----------------===//
///
/// \file
/// packFunctionSeg and packNodes (core/Seg.h): a SEG as a compact binary
/// image while the plugin holds it (source-level SEGs until their IR level
/// comes, IR SEGs until code generation reaches them), and the readers that
/// give it back field for field. Not a file format.
///
//===----------------------------------------------------------------------===//
#include "core/ByteImage.h"
#include "core/Seg.h"

#include <cstring>
#include <stdexcept>
#include <utility>

namespace segtime {

namespace {
/// Writes packFunctionSeg's image (core/ByteImage.h's encoding).
struct ImageWriter : ByteWriter {
  void range(const SourceRange &R) {
    str(R.File);
    num(R.Line);
    num(R.Col);
    num(R.EndLine);
    num(R.EndCol);
  }
  void nodes(const NodeList &L) {
    num(L.size());
    for (const Node &N : L)
      node(N);
  }
  void node(const Node &N) {
    num(static_cast<unsigned>(N.Kind));
    str(N.Id);
    str(N.Label);
    range(N.Range);
    num(N.Ruvs.size());
    for (auto &[Level, R] : N.Ruvs) {
      str(Level);
      num(R.counts().size());
      for (auto &[Op, V] : R.counts()) {
        str(Op);
        real(V);
      }
    }
    for (const std::string *S : {&N.LoopKind, &N.Index, &N.Start, &N.Step, &N.StepKind, &N.Trip})
      str(*S);
    nodes(N.Body);
    num(N.Arms.size());
    for (const Arm &A : N.Arms) {
      str(A.Label);
      str(A.Prob);
      nodes(A.Body);
    }
    str(N.Callee);
    strs(N.Args);
    for (const std::string *S : {&N.CommOp, &N.Bytes, &N.Peer, &N.Pattern, &N.Root, &N.Reason,
                                 &N.Freq, &N.SourceNode, &N.BranchProb, &N.Footprint,
                                 &N.Traffic})
      str(*S);
    num(N.Streams.size());
    for (const MemStream &M : N.Streams) {
      str(M.Base);
      num(M.Load | M.Store << 1);
      num(M.Size);
      strs(M.Offsets);
      num(M.Loops.size());
      for (const MemStream::Step &S : M.Loops)
        for (const std::string *X : {&S.Loop, &S.Stride, &S.Trip, &S.Index})
          str(*X);
    }
    strs(N.MemoryNotes);
    str(N.Chain);
  }
};

/// Reads ImageWriter's image; throws if it ends early.
struct ImageReader : ByteReader {
  explicit ImageReader(const std::vector<std::uint8_t> &In) : ByteReader{In} {}
  SourceRange range() {
    SourceRange R;
    R.File = str();
    R.Line = u32();
    R.Col = u32();
    R.EndLine = u32();
    R.EndCol = u32();
    return R;
  }
  NodeList nodes() {
    NodeList L(count());
    for (Node &N : L)
      node(N);
    return L;
  }
  void node(Node &N) {
    std::uint64_t K = num();
    if (K > static_cast<unsigned>(NodeKind::Unknown))
      throw std::runtime_error("SEG image: node kind " + std::to_string(K) + " at byte " +
                               std::to_string(Pos));
    N.Kind = static_cast<NodeKind>(K);
    N.Id = str();
    N.Label = str();
    N.Range = range();
    for (size_t I = 0, E = count(); I < E; ++I) {
      Ruv &R = N.Ruvs.emplace_hint(N.Ruvs.end(), str(), Ruv())->second;
      for (size_t J = 0, EJ = count(); J < EJ; ++J) {
        std::string Op = str();
        R.set(Op, real());
      }
    }
    for (std::string *S : {&N.LoopKind, &N.Index, &N.Start, &N.Step, &N.StepKind, &N.Trip})
      *S = str();
    N.Body = nodes();
    N.Arms.resize(count());
    for (Arm &A : N.Arms) {
      A.Label = str();
      A.Prob = str();
      A.Body = nodes();
    }
    N.Callee = str();
    N.Args = strs();
    for (std::string *S : {&N.CommOp, &N.Bytes, &N.Peer, &N.Pattern, &N.Root, &N.Reason, &N.Freq,
                           &N.SourceNode, &N.BranchProb, &N.Footprint, &N.Traffic})
      *S = str();
    N.Streams.resize(count());
    for (MemStream &M : N.Streams) {
      M.Base = str();
      std::uint64_t LS = num();
      M.Load = LS & 1;
      M.Store = LS & 2;
      M.Size = u32();
      M.Offsets = strs();
      M.Loops.resize(count());
      for (MemStream::Step &S : M.Loops)
        for (std::string *X : {&S.Loop, &S.Stride, &S.Trip, &S.Index})
          *X = str();
    }
    N.MemoryNotes = strs();
    N.Chain = str();
  }
  void end() const {
    if (Pos != In.size())
      throw std::runtime_error("SEG image: " + std::to_string(In.size() - Pos) +
                               " byte(s) after its end");
  }
};
} // namespace

void packParameters(ByteWriter &W, const std::vector<Parameter> &Ps) {
  W.num(Ps.size());
  for (const Parameter &P : Ps) {
    for (const std::string *S : {&P.Name, &P.Kind, &P.Source, &P.Where, &P.Meaning, &P.TakenAt,
                                 &P.OtherAt, &P.DefaultExpr})
      W.str(*S);
    W.num(P.Default.has_value());
    if (P.Default)
      W.real(*P.Default);
  }
}

std::vector<Parameter> unpackParameters(ByteReader &R) {
  std::vector<Parameter> Ps(R.count());
  for (Parameter &P : Ps) {
    for (std::string *S : {&P.Name, &P.Kind, &P.Source, &P.Where, &P.Meaning, &P.TakenAt,
                           &P.OtherAt, &P.DefaultExpr})
      *S = R.str();
    if (R.num())
      P.Default = R.real();
  }
  return Ps;
}

std::vector<std::uint8_t> packNodes(const NodeList &L) {
  ImageWriter W;
  W.nodes(L);
  return std::move(W.Out);
}

NodeList unpackNodes(const std::vector<std::uint8_t> &Image) {
  ImageReader R(Image);
  NodeList L = R.nodes();
  R.end();
  return L;
}

std::vector<std::uint8_t> packFunctionSeg(const FunctionSeg &F) {
  ImageWriter W;
  W.str(F.Name);
  W.range(F.Range);
  W.strs(F.Params);
  packParameters(W, F.Parameters);
  W.nodes(F.Body);
  W.num(F.InMainFile | F.Static << 1);
  W.num(F.LevelSegs.size());
  for (auto &[K, L] : F.LevelSegs) {
    W.str(K);
    W.nodes(L);
  }
  W.num(F.InlinedAt.size());
  for (const InlinedRef &Ref : F.InlinedAt) {
    W.str(Ref.Caller);
    W.str(Ref.Where);
    W.strs(Ref.Nodes);
  }
  return std::move(W.Out);
}

FunctionSeg unpackFunctionSeg(const std::vector<std::uint8_t> &Image) {
  ImageReader R(Image);
  FunctionSeg F;
  F.Name = R.str();
  F.Range = R.range();
  F.Params = R.strs();
  F.Parameters = unpackParameters(R);
  F.Body = R.nodes();
  std::uint64_t Flags = R.num();
  F.InMainFile = Flags & 1;
  F.Static = Flags & 2;
  for (size_t I = 0, E = R.count(); I < E; ++I) {
    std::string K = R.str();
    F.LevelSegs[K] = R.nodes();
  }
  F.InlinedAt.resize(R.count());
  for (InlinedRef &Ref : F.InlinedAt) {
    Ref.Caller = R.str();
    Ref.Where = R.str();
    Ref.Nodes = R.strs();
  }
  R.end();
  return F;
}

} // namespace segtime
