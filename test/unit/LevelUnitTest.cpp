//===- LevelUnitTest.cpp - The level units and their registry -------------===//
///
/// \file
/// predictor/levels: one unit per level, found by its enum; what each says
/// about its cost vectors, memory term and calibration.
///
//===----------------------------------------------------------------------===//
#include "predictor/Machine.h"
#include "predictor/ResourceModel.h"
#include "predictor/levels/LevelUnit.h"

#include <gtest/gtest.h>

using namespace segtime;

TEST(LevelUnit, OneUnitPerLevelInRegistrationOrder) {
  std::vector<Level> Ls;
  for (const LevelUnit *U : levelUnits()) {
    Ls.push_back(U->level());
    EXPECT_EQ(&levelUnit(U->level()), U);
    EXPECT_EQ(U->key(), levelKey(U->level()));
  }
  EXPECT_EQ(Ls, (std::vector<Level>{Level::POC, Level::HLLC, Level::IntCC, Level::ICC, Level::CT}));
  EXPECT_THROW(levelUnit(Level::DBC), std::invalid_argument); // hand-written graphs: no unit
  EXPECT_FALSE(costedLevel(Level::DBC));
  EXPECT_FALSE(costedLevel(Level::CT));
  EXPECT_TRUE(costedLevel(Level::IntCC));
  EXPECT_EQ(costedLevelKeys(), "POC, HLLC, INTCC, ICC");
  EXPECT_EQ(costedLevelsMostDetailedFirst(),
            (std::vector<Level>{Level::ICC, Level::IntCC, Level::HLLC, Level::POC}));
}

TEST(LevelUnit, WhatDiffersPerLevel) {
  EXPECT_TRUE(levelUnit(Level::ICC).perTarget());
  EXPECT_FALSE(levelUnit(Level::IntCC).perTarget());
  EXPECT_TRUE(levelUnit(Level::POC).costIsRate());
  EXPECT_EQ(std::string(levelUnit(Level::HLLC).entryWord()), "construct");
  EXPECT_EQ(levelUnit(Level::POC).memoryTerm(), MemoryTerm::None);
  EXPECT_EQ(levelUnit(Level::HLLC).memoryTerm(), MemoryTerm::SourceLoops);
  EXPECT_EQ(levelUnit(Level::IntCC).memoryTerm(), MemoryTerm::IrNests);
  EXPECT_TRUE(levelUnit(Level::ICC).memoryTermInModel());
  EXPECT_FALSE(levelUnit(Level::IntCC).memoryTermInModel());
  EXPECT_EQ(levelUnit(Level::POC).alwaysCounted(), std::vector<std::string>{"flop"});
  EXPECT_TRUE(levelUnit(Level::ICC).hasBreakdown());
  EXPECT_FALSE(levelUnit(Level::HLLC).hasBreakdown());
}

TEST(LevelUnit, CalibrationRules) {
  EXPECT_EQ(levelUnit(Level::POC).calibFit(), CalibFit::FlopRate);
  EXPECT_EQ(levelUnit(Level::HLLC).calibFit(), CalibFit::Costs);
  EXPECT_EQ(levelUnit(Level::IntCC).calibFit(), CalibFit::Costs);
  EXPECT_EQ(levelUnit(Level::ICC).calibFit(), CalibFit::Clock);
  EXPECT_EQ(levelUnit(Level::CT).calibFit(), CalibFit::None);
  EXPECT_EQ(levelUnit(Level::HLLC).fitColumns(), FitColumns::Vocabulary);
  EXPECT_EQ(levelUnit(Level::HLLC).vocabulary().size(), hllcVocabulary().size());
  EXPECT_EQ(levelUnit(Level::IntCC).fitColumns(), FitColumns::ExecutedClasses);
  EXPECT_EQ(levelUnit(Level::IntCC).fitClass("fadd.f64"), "fadd.*");
  EXPECT_EQ(levelUnit(Level::IntCC).fitClass("call.llvm.sqrt.f64"), "call.llvm.sqrt.f64");
  EXPECT_EQ(levelUnit(Level::HLLC).fitClass("f64.add"), "f64.add");
  EXPECT_TRUE(levelUnit(Level::IntCC).vocabulary().empty());
  EXPECT_EQ(levelUnit(Level::ICC).machineFileComments().size(), 2u);
}

TEST(LevelUnit, ModelsAndMachines) {
  Machine M;
  M.Name = "hand";
  CostVector &I = M.Levels[Level::ICC]["znver3"];
  I.Unit = "ns";
  I.Costs["cycles"].Value = 0.25;
  const LevelUnit &Icc = levelUnit(Level::ICC);
  EXPECT_TRUE(Icc.machineHas(M, "znver3"));
  EXPECT_FALSE(Icc.machineHas(M, "leon3"));
  EXPECT_FALSE(levelUnit(Level::HLLC).machineHas(M, ""));
  EXPECT_EQ(Icc.makeModel({M, "O2", "znver3", {}})->level(), Level::ICC);
  EXPECT_THROW(Icc.makeModel({M, "O2", "", {}}), std::invalid_argument);
  try {
    levelUnit(Level::CT).makeModel({M, "O2", "", {}});
    FAIL() << "CT has no resource model";
  } catch (const std::invalid_argument &E) {
    EXPECT_STREQ(E.what(), "no resource model for level CT (available: POC, HLLC, INTCC, ICC)");
  }
}
