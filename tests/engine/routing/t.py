lock(a)
unlock(b)
lkx = y
q = z
other(c)
unlock(lkw)
