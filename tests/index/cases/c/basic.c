#include <stdlib.h>
#include <string.h>
#include "shapes.h"

static const int DEFAULT_CAPACITY = 8;
const char *const UNIT = "px";

/* A polygon: a closed list of vertices. */
struct polygon {
    size_t count;
    point_t vertices[MAX_VERTICES];
    struct bbox {
        point_t min;
        point_t max;
    } box;
};

static int compare_points(const void *a, const void *b);

/**
 * Allocate a polygon with room for `n` vertices.
 * Returns NULL when out of memory.
 */
struct polygon *
polygon_new(size_t n)
{
    struct polygon *poly = calloc(1, sizeof(struct polygon));
    if (poly == NULL) {
        return NULL;
    }
    poly->count = n;
    return poly;
}

void polygon_free(struct polygon *poly)
{
    free(poly);
}

// Shoelace formula.
double polygon_area(const struct polygon *poly, color_t tint)
{
    double sum = 0.0;
    for (size_t i = 0; i < poly->count; i++) {
        point_t a = poly->vertices[i];
        point_t b = poly->vertices[(i + 1) % poly->count];
        sum += a.x * b.y - b.x * a.y;
    }
    (void)tint;
    return SQUARE(sum) > 0 ? sum / 2 : -sum / 2;
}

static int compare_points(const void *a, const void *b)
{
    const point_t *pa = (const point_t *)a;
    const point_t *pb = (const point_t *)b;
    return (pa->x > pb->x) - (pa->x < pb->x);
}

char **shape_names(int *count)
{
    struct shape_ops {
        int (*draw)(void *);
    } ops = {0};
    char **names = malloc(2 * sizeof(char *));
    names[0] = strdup("circle");
    names[1] = strdup("polygon");
    *count = 2;
    qsort(names, 2, sizeof(char *), compare_points);
    ops.draw(names);
    return names;
}
