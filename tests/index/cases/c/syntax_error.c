#include "shapes.h"

/* Scale every vertex. */
void polygon_scale(struct polygon *poly, double k)
{
    for (size_t i = 0; i < poly->count; i++) {
        poly->vertices[i].x *= k;
    }
}

/* This one is broken: the parameter list never closes. */
int broken_function(int a, int b
{
    return a + ;
}

/* Still found after the error. */
int polygon_count(const struct polygon *poly)
{
    return (int)poly->count;
}

struct after_error {
    int ok;
};
