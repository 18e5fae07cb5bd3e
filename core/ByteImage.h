//===- ByteImage.h - Numbers and strings as bytes, and back ----*- C++ -*-===//
///
/// \file
/// The encoding of the plugin's in-memory images (core/SegImage.cpp's packed
/// SEGs, the IR SEGs waiting for code generation in passes/Register.cpp):
/// unsigned numbers as LEB128, doubles as their 8 bytes, strings and byte
/// lists with their length first. Not a file format.
///
//===----------------------------------------------------------------------===//
#ifndef SEGTIME_CORE_BYTEIMAGE_H
#define SEGTIME_CORE_BYTEIMAGE_H

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace segtime {

/// Appends values to Out.
struct ByteWriter {
  std::vector<std::uint8_t> Out;
  void num(std::uint64_t V) {
    do {
      std::uint8_t B = V & 0x7f;
      V >>= 7;
      Out.push_back(B | (V ? 0x80 : 0));
    } while (V);
  }
  void real(double D) {
    std::uint8_t B[sizeof D];
    std::memcpy(B, &D, sizeof D);
    Out.insert(Out.end(), B, B + sizeof D);
  }
  void str(const std::string &S) {
    num(S.size());
    Out.insert(Out.end(), S.begin(), S.end());
  }
  void strs(const std::vector<std::string> &V) {
    num(V.size());
    for (const std::string &S : V)
      str(S);
  }
  void bytes(const std::vector<std::uint8_t> &V) {
    num(V.size());
    Out.insert(Out.end(), V.begin(), V.end());
  }
};

/// Reads ByteWriter's values back from In; throws std::runtime_error
/// ("SEG image: ...", with the byte offset) if In ends early or a number
/// does not fit.
struct ByteReader {
  const std::vector<std::uint8_t> &In;
  size_t Pos = 0;
  void need(size_t N) const {
    if (In.size() - Pos < N)
      throw std::runtime_error("SEG image: truncated at byte " + std::to_string(Pos) + " of " +
                               std::to_string(In.size()));
  }
  std::uint64_t num() {
    std::uint64_t V = 0;
    for (unsigned Shift = 0;; Shift += 7) {
      need(1);
      std::uint8_t B = In[Pos++];
      if (Shift > 63)
        throw std::runtime_error("SEG image: number too long at byte " + std::to_string(Pos));
      V |= std::uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return V;
    }
  }
  unsigned u32() {
    std::uint64_t V = num();
    if (V > UINT32_MAX)
      throw std::runtime_error("SEG image: number out of range at byte " + std::to_string(Pos));
    return static_cast<unsigned>(V);
  }
  double real() {
    double D;
    need(sizeof D);
    std::memcpy(&D, In.data() + Pos, sizeof D);
    Pos += sizeof D;
    return D;
  }
  std::string str() {
    std::uint64_t N = num();
    need(N);
    std::string S(reinterpret_cast<const char *>(In.data() + Pos), N);
    Pos += N;
    return S;
  }
  /// A count of items that take at least a byte each.
  size_t count() {
    std::uint64_t N = num();
    need(N);
    return N;
  }
  std::vector<std::string> strs() {
    std::vector<std::string> V(count());
    for (std::string &S : V)
      S = str();
    return V;
  }
  std::vector<std::uint8_t> bytes() {
    size_t N = count();
    std::vector<std::uint8_t> V(In.begin() + Pos, In.begin() + Pos + N);
    Pos += N;
    return V;
  }
};

} // namespace segtime

#endif
