// alphabeta.cpp: textbook alpha-beta search, graded by `plies grade --form program`.
//
// Build and grade (from this folder):
//
//     g++ -O2 -std=c++17 -o alphabeta alphabeta.cpp
//     plies grade ./alphabeta --form program
//
// The program does not hold the tree. It asks the grader for it, one line at a
// time, and the grader answers each request on the next line of standard input
// (the protocol is in docs/grade-protocol.md):
//
//     we write             the grader answers
//     kind 3               max, min, chance or leaf
//     children 3           "2 4 7": two children, nodes 4 and 7
//     value 4              the value of leaf 4 (this is a leaf evaluation)
//     probability 4        the probability of node 4, a child of a chance node
//     enter 3 -inf 5       nothing: the window (alpha, beta) node 3 is searched with
//     result 5             nothing: the value of the root; this search is over
//
// The grader starts a search by writing "search"; the root is node 0. Because
// we ask for every leaf value, the grader sees exactly which leaves we evaluate
// and in which order, so a missed cut-off (or one too many) costs marks.

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace std;

const double INF = numeric_limits<double>::infinity();

// Send one request and return the grader's answer (one line).
string ask(const string& request) {
    cout << request << endl;  // endl also flushes, so the grader sees the line now
    string answer;
    if (!getline(cin, answer)) {
        exit(1);  // the grader has gone: nothing left to do
    }
    return answer;
}

string getKind(int node) {
    return ask("kind " + to_string(node));
}

vector<int> getChildren(int node) {
    istringstream answer(ask("children " + to_string(node)));
    int count = 0;
    answer >> count;
    vector<int> children(count);
    for (int i = 0; i < count; i++) {
        answer >> children[i];
    }
    return children;
}

double evaluateNode(int node) {
    return stod(ask("value " + to_string(node)));
}

double getProbability(int node) {
    return stod(ask("probability " + to_string(node)));
}

// Tell the grader which window this node is searched with (no answer comes back).
void reportWindow(int node, double alpha, double beta) {
    cout << "enter " << node << " " << alpha << " " << beta << endl;
}

// The value of `node`, searched with the window (alpha, beta).
double alphabeta(int node, double alpha, double beta) {
    reportWindow(node, alpha, beta);
    string kind = getKind(node);

    if (kind == "leaf") {
        return evaluateNode(node);
    }
    vector<int> children = getChildren(node);

    if (kind == "chance") {
        // Expectimax: the average of the children, weighted by their
        // probabilities. Every child counts, so nothing is pruned here, and each
        // child is searched with the full window.
        double expected = 0;
        for (int child : children) {
            expected += getProbability(child) * alphabeta(child, -INF, INF);
        }
        return expected;
    }

    if (kind == "max") {
        double best = -INF;
        for (int child : children) {
            best = max(best, alphabeta(child, alpha, beta));
            alpha = max(alpha, best);  // MAX raises the lower bound
            if (alpha >= beta) {
                break;  // MIN above will never let the game come here: prune the rest
            }
        }
        return best;
    }

    // kind == "min"
    double best = INF;
    for (int child : children) {
        best = min(best, alphabeta(child, alpha, beta));
        beta = min(beta, best);  // MIN lowers the upper bound
        if (alpha >= beta) {
            break;  // MAX above already has something at least as good: prune the rest
        }
    }
    return best;
}

int main() {
    cout.precision(17);  // print doubles in full, so the grader reads our exact values

    // One search per "search" line, until the grader closes our input.
    string line;
    while (getline(cin, line) && line == "search") {
        double value = alphabeta(0, -INF, INF);  // the root is node 0
        cout << "result " << value << endl;
    }
    return 0;
}
