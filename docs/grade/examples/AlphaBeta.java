// AlphaBeta.java: textbook alpha-beta search, graded by `plies grade --form program`.
//
// Build and grade (from this folder):
//
//     javac -d build AlphaBeta.java
//     plies grade "java -Xmx256m -cp build AlphaBeta" --form program
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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class AlphaBeta {

    static final double INF = Double.POSITIVE_INFINITY;

    static BufferedReader in = new BufferedReader(new InputStreamReader(System.in));

    // Send one request and return the grader's answer (one line).
    static String ask(String request) throws IOException {
        System.out.println(request);  // println flushes System.out: the grader sees it now
        String answer = in.readLine();
        if (answer == null) {
            System.exit(1);  // the grader has gone: nothing left to do
        }
        return answer;
    }

    static String getKind(int node) throws IOException {
        return ask("kind " + node);
    }

    static int[] getChildren(int node) throws IOException {
        String[] words = ask("children " + node).trim().split("\\s+");
        int count = Integer.parseInt(words[0]);
        int[] children = new int[count];
        for (int i = 0; i < count; i++) {
            children[i] = Integer.parseInt(words[i + 1]);
        }
        return children;
    }

    static double evaluateNode(int node) throws IOException {
        return Double.parseDouble(ask("value " + node));
    }

    static double getProbability(int node) throws IOException {
        return Double.parseDouble(ask("probability " + node));
    }

    // Tell the grader which window this node is searched with (no answer comes back).
    static void reportWindow(int node, double alpha, double beta) {
        System.out.println("enter " + node + " " + alpha + " " + beta);
    }

    // The value of `node`, searched with the window (alpha, beta).
    static double alphabeta(int node, double alpha, double beta) throws IOException {
        reportWindow(node, alpha, beta);
        String kind = getKind(node);

        if (kind.equals("leaf")) {
            return evaluateNode(node);
        }
        int[] children = getChildren(node);

        if (kind.equals("chance")) {
            // Expectimax: the average of the children, weighted by their
            // probabilities. Every child counts, so nothing is pruned here, and
            // each child is searched with the full window.
            double expected = 0;
            for (int child : children) {
                expected += getProbability(child) * alphabeta(child, -INF, INF);
            }
            return expected;
        }

        if (kind.equals("max")) {
            double best = -INF;
            for (int child : children) {
                best = Math.max(best, alphabeta(child, alpha, beta));
                alpha = Math.max(alpha, best);  // MAX raises the lower bound
                if (alpha >= beta) {
                    break;  // MIN above will never let the game come here: prune the rest
                }
            }
            return best;
        }

        // kind is "min"
        double best = INF;
        for (int child : children) {
            best = Math.min(best, alphabeta(child, alpha, beta));
            beta = Math.min(beta, best);  // MIN lowers the upper bound
            if (alpha >= beta) {
                break;  // MAX above already has something at least as good: prune the rest
            }
        }
        return best;
    }

    public static void main(String[] args) throws IOException {
        // One search per "search" line, until the grader closes our input.
        String line;
        while ((line = in.readLine()) != null && line.equals("search")) {
            double value = alphabeta(0, -INF, INF);  // the root is node 0
            System.out.println("result " + value);
        }
    }
}
