#include <vector>

namespace shapes {

/// A circle.
class Circle {
public:
    double area() const { return 3.14159 * r_ * r_; }
private:
    double r_ = 1.0;
};

// Broken: a member's parameter list is never closed.
class Broken {
public:
    int value( { return 1 }
};

/// Sum the areas.
double total_area(const std::vector<Circle>& circles) {
    double sum = 0;
    for (const auto& c : circles) sum += c.area();
    return sum;
}

}  // namespace shapes
