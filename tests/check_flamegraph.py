# SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause
"""check_flamegraph.py SVG - read a flame graph of src/tool/out/flamegraph.c as
XML, check its geometry and print what it draws.

Checked for every frame (a <g class="f"> with a <title> "name (N samples,
P%)", a <rect> and a <text> label):
  - its width is N times the width of one sample (1180 px / the root's N),
    P is 100 N / the root's N;
  - every frame but the root lies one row (16 px) above exactly one frame
    whose x range holds it: its parent;
  - a parent's children start at its left edge, follow each other without
    overlap, sorted by name, and hold no more samples than it;
  - the label is the name, or its start and "..", within the frame.
Printed (ASCII, names as JSON strings): the title, then each frame in
pre-order, indented by its depth, as NAME COUNT. Exit 1 on a failed check.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/2000/svg}'
WIDTH, PAD, ROW, CHAR_PX = 1200.0, 10.0, 16.0, 7.2
ROUND = 0.002  # coordinates are printed with 3 decimals


def fail(msg):
    print('check_flamegraph: ' + msg, file=sys.stderr)
    sys.exit(1)


def main():
    svg = ET.parse(sys.argv[1]).getroot()
    frames = []
    for g in svg.iter(NS + 'g'):
        if g.get('class') != 'f':
            continue
        title = g.find(NS + 'title').text
        m = re.fullmatch(r'(.*) \((\d+) samples?, (\d+\.\d\d)%\)', title, re.S)
        if not m:
            fail('title %r' % title)
        rect = g.find(NS + 'rect')
        frames.append({'name': m[1], 'n': int(m[2]), 'pct': float(m[3]),
                       'x': float(rect.get('x')), 'w': float(rect.get('width')),
                       'y': float(rect.get('y')), 'label': g.find(NS + 'text').text or '',
                       'children': []})
    if not frames:
        fail('no frames')
    bottom = max(f['y'] for f in frames)
    roots = [f for f in frames if f['y'] == bottom]
    if len(roots) != 1 or roots[0]['name'] != 'all':
        fail('not one root "all" at the bottom')
    root = roots[0]
    height = float(svg.get('height'))
    if svg.get('viewBox') != '0 0 1200 %g' % height or bottom != height - 36 - ROW:
        fail('root row or viewBox')
    total = root['n']
    if total == 0 or abs(root['x'] - PAD) > ROUND or abs(root['w'] - (WIDTH - 2 * PAD)) > ROUND:
        fail('root geometry')
    scale = (WIDTH - 2 * PAD) / total
    for f in frames:
        if abs(f['w'] - f['n'] * scale) > ROUND:
            fail('%r: width %g for %d samples' % (f['name'], f['w'], f['n']))
        if abs(f['pct'] - 100.0 * f['n'] / total) > 0.005001:
            fail('%r: %g%%' % (f['name'], f['pct']))
        fit = int((f['w'] - 6) / CHAR_PX)
        label = f['label']
        if not (label == f['name'] and len(label) <= fit or label == '' and fit < 3 or
                label.endswith('..') and len(label) == fit and
                f['name'].startswith(label[:-2])):
            fail('%r: label %r in %g px' % (f['name'], label, f['w']))
        if f is root:
            continue
        parents = [p for p in frames if p['y'] == f['y'] + ROW and
                   p['x'] - ROUND <= f['x'] and f['x'] + f['w'] <= p['x'] + p['w'] + ROUND]
        if len(parents) != 1:
            fail('%r: %d parents' % (f['name'], len(parents)))
        parents[0]['children'].append(f)
    for p in frames:
        kids = sorted(p['children'], key=lambda k: k['x'])
        at = p['x']
        for i, k in enumerate(kids):
            if abs(k['x'] - at) > ROUND or (i and kids[i - 1]['name'] >= k['name']):
                fail('%r: children out of place or order' % p['name'])
            at = k['x'] + k['w']
        if sum(k['n'] for k in kids) > p['n']:
            fail('%r: children hold more samples' % p['name'])
        p['children'] = kids

    print('title ' + json.dumps(svg.find(NS + 'text[@id="title"]').text))
    todo = [(root, 0)]
    while todo:
        f, depth = todo.pop()
        print('%s%s %d' % (' ' * depth, json.dumps(f['name']), f['n']))
        todo.extend((k, depth + 1) for k in reversed(f['children']))


main()
