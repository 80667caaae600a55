// The driver that scripts/anchor-steininger builds with Christophe Steininger's c4
// solver (github ChristopheSteininger/c4): it reads lines "MOVES [SCORE]" (MOVES as
// that project's test files write them, 0-based column digits) on stdin and prints
// "MOVES SCORE NODES MICROSECONDS" for each, solved strongly by one Solver whose
// table is kept between lines, as its own tests do.
#include <chrono>
#include <iostream>
#include <string>
#include "solver/position.h"
#include "solver/solver.h"
int main() {
    Solver solver{};
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.empty()) continue;
        Position pos{};
        size_t i = 0;
        for (; i < line.size() && line[i] != ' '; i++) pos.move(line[i] - '0');
        auto start = std::chrono::steady_clock::now();
        unsigned long long before = solver.get_merged_stats().get_num_nodes();
        int score = solver.solve_strong(pos);
        auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
        unsigned long long nodes = solver.get_merged_stats().get_num_nodes() - before;
        std::cout << line.substr(0, i) << " " << score << " " << nodes << " " << us << std::endl;
    }
}
