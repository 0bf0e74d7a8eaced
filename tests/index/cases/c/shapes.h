/*
 * shapes.h - geometry primitives shared by the renderer.
 */
#ifndef SHAPES_H
#define SHAPES_H

#include <stddef.h>
#include "color.h"

/** Maximum number of vertices in a polygon. */
#define MAX_VERTICES 64
#define SQUARE(x) ((x) * (x))

/** A point in 2D space. */
typedef struct {
    double x;
    double y;
} point_t;

/* Linked list of shapes. */
typedef struct shape_node {
    struct shape_node *next;
    void *data;
} shape_node_t;

/// Kinds of shapes the renderer understands.
enum shape_kind {
    SHAPE_CIRCLE,
    SHAPE_POLYGON = 4,
};

typedef enum { DRAW_FILL, DRAW_STROKE } draw_mode;

union number {
    int i;
    double d;
};

typedef double scalar;
typedef int (*shape_cmp_fn)(const void *a, const void *b);

extern const int SHAPES_VERSION;

/**
 * Allocate a polygon with room for `n` vertices.
 */
struct polygon *polygon_new(size_t n);

/** Release a polygon. */
void polygon_free(struct polygon *poly);

double polygon_area(const struct polygon *poly, color_t tint);
char **shape_names(int *count);

#endif /* SHAPES_H */
