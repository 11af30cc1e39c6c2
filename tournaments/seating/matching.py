"""Maximum matching in a general graph (Edmonds' blossom algorithm), for Swiss pairings: the
largest number of tables of two whose players have not met yet."""


def maximum_matching(n: int, adjacent: list[list[int]]) -> list[int]:
    """``mate[v]``, the vertex matched with ``v`` (or −1), in a maximum matching of the graph
    on vertices 0..n−1 with adjacency lists ``adjacent``."""
    mate = [-1] * n
    for v in range(n):  # a greedy start leaves few augmenting paths to find
        if mate[v] == -1:
            for w in adjacent[v]:
                if mate[w] == -1 and w != v:
                    mate[v], mate[w] = w, v
                    break
    for root in range(n):
        if mate[root] == -1:
            end = _augmenting_path(n, adjacent, mate, root)
            if end is not None:
                _augment(mate, *end)
    return mate


def matching_size(n: int, adjacent: list[list[int]]) -> int:
    return sum(1 for v, w in enumerate(maximum_matching(n, adjacent)) if w > v)


def _augmenting_path(n, adjacent, mate, root):
    parent = [-1] * n
    base = list(range(n))
    used = [False] * n
    used[root] = True
    queue = [root]
    head = 0

    def lca(a, b):
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark(v, b, child, blossom):
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while head < len(queue):
        v = queue[head]
        head += 1
        for to in adjacent[v]:
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                current = lca(v, to)
                blossom = [False] * n
                mark(v, current, to, blossom)
                mark(to, current, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = current
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    return parent, to
                used[mate[to]] = True
                queue.append(mate[to])
    return None


def _augment(mate, parent, v):
    while v != -1:
        pv = parent[v]
        ppv = mate[pv]
        mate[v], mate[pv] = pv, v
        v = ppv
