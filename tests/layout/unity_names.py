#!/usr/bin/env python3
"""A unity build (CMakeLists.txt, BREAKERLAB_UNITY_BUILD) compiles a target's .cpp files in
batches, so a name that two files of one target each keep to themselves (in an anonymous
namespace, or `static`) meets the other file's in a batch: the same signature twice does not
compile, and an overload of another file's helper can be chosen in silence. Batches change as
files are added, so this fails on any such name in a target, whatever the batches are now.

Usage: unity_names.py BUILD_DIR   (reads the targets' files from the unity batch files CMake
writes under BUILD_DIR/**/Unity/; prints each name with its files)."""
import collections
import glob
import os
import re
import sys


def strip(src):
    src = re.sub(r'R"(\w*)\(.*?\)\1"', '""', src, flags=re.S)
    src = re.sub(r'"(\\.|[^"\\\n])*"', '""', src)
    src = re.sub(r"'(\\.|[^'\\\n])*'", "''", src)
    src = re.sub(r'//[^\n]*', '', src)
    src = re.sub(r'/\*.*?\*/', '', src, flags=re.S)
    src = re.sub(r'^\s*#[^\n]*(\\\n[^\n]*)*', '', src, flags=re.M)
    return src


DECLARED = [
    # struct/class/enum NAME {  or  NAME : base {
    re.compile(r'\b(?:struct|class|union|enum(?:\s+class)?)\s+(\w+)\s*(?:final\s*)?(?::[^{;]*)?$'),
    # a function: ... NAME(args) [const] [noexcept] [-> T] {
    re.compile(r'(?<![:\w])(\w+)\s*\((?:[^()]|\([^()]*\))*\)\s*(?:const\s*)?(?:noexcept\s*)?(?:->[^{;]*)?$'),
]
VARIABLE = re.compile(r'(?<![:\w])(\w+)\s*(?:\[[^\]]*\])?\s*(?:=|\{)')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'decltype', 'operator', 'TEST',
            'TEST_F', 'TEST_P', 'TYPED_TEST', 'INSTANTIATE_TEST_SUITE_P', 'namespace', 'catch',
            # GoogleTest's printer of a type, found by argument-dependent lookup: each file's
            # overload takes its own type, so two in one batch never stand for each other.
            'PrintTo'}


def private_names(path):
    """Names declared directly in an anonymous namespace, or `static` at namespace scope."""
    src = strip(open(path, encoding='utf-8', errors='replace').read())
    names = set()
    # Each open brace: 'anon' (anonymous namespace), 'ns' (named namespace), 'other'.
    stack = []
    statement = ''
    parens = 0  # braces inside parentheses (a default argument's `= {}`) open no scope
    for ch in src:
        if ch == '(':
            parens += 1
        elif ch == ')':
            parens = max(0, parens - 1)
        if parens > 0 and ch in '{};':
            statement += ch
        elif ch == '{':
            s = ' '.join(statement.split())
            at_namespace_scope = all(kind in ('anon', 'ns') for kind in stack)
            private_scope = at_namespace_scope and 'anon' in stack
            if re.search(r'\bnamespace\s*$', s):
                stack.append('anon')
            elif re.search(r'\bnamespace\s+[\w:]+\s*$', s) or s.endswith('extern ""'):
                stack.append('ns')
            else:
                if at_namespace_scope and (private_scope or re.match(r'static\b', s)):
                    for pattern in DECLARED:
                        m = pattern.search(s)
                        if m and m.group(1) not in KEYWORDS:
                            names.add(m.group(1))
                            break
                    else:
                        m = VARIABLE.search(s)
                        if m and m.group(1) not in KEYWORDS:
                            names.add(m.group(1))
                stack.append('other')
            statement = ''
        elif ch == '}':
            if stack:
                stack.pop()
            statement = ''
        elif ch == ';':
            s = ' '.join(statement.split())
            at_namespace_scope = all(kind in ('anon', 'ns') for kind in stack)
            if at_namespace_scope and ('anon' in stack or re.match(r'static\b', s)) and s:
                if not re.match(r'(using|typedef|template|friend|extern|namespace)\b', s) and '(' not in s.split('=')[0]:
                    m = re.search(r'(?<![:\w])(\w+)\s*(?:\[[^\]]*\])?\s*(?:=.*)?$', s)
                    if m and m.group(1) not in KEYWORDS and not s.startswith('return'):
                        names.add(m.group(1))
            statement = ''
        else:
            statement += ch
    return names


def main():
    build = sys.argv[1]
    targets = collections.defaultdict(set)
    for batch in glob.glob(os.path.join(build, '**', 'Unity', 'unity_*.cxx'), recursive=True):
        target = batch.split('/CMakeFiles/')[1].split('.dir/')[0]
        for line in open(batch):
            m = re.match(r'#include "(.*)"', line)
            if m and m.group(1).endswith('.cpp'):
                targets[target].add(m.group(1))
    if not targets:
        print(f'unity_names: no unity batches under {build} (BREAKERLAB_UNITY_BUILD=OFF?)')
        return 0
    status = 0
    for target, files in sorted(targets.items()):
        owners = collections.defaultdict(list)
        for f in sorted(files):
            for name in private_names(f):
                owners[name].append(os.path.relpath(f, os.path.commonpath(list(files))))
        for name, where in sorted(owners.items()):
            if len(where) > 1:
                status = 1
                print(f'{target}: {name} is private to several files: {", ".join(where)}')
    if status:
        print('Rename each (or share one definition in a header): docs/hacking.md, "Build times".')
    return status


if __name__ == '__main__':
    sys.exit(main())
