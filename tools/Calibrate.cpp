#include <iostream>
int calibrateMain(int, char **) { std::cerr << "segtime calibrate: not yet\n"; return 2; }
