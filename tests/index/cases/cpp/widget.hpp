// widget.hpp - UI widgets.
#pragma once

#include <memory>
#include <string>
#include <vector>
#include "core/object.hpp"

#define WIDGET_API __attribute__((visibility("default")))

namespace ui {

constexpr int kMaxChildren = 32;

/// Layout direction for containers.
enum class Direction { Horizontal, Vertical };

/**
 * Base class of everything drawable.
 */
class Widget : public core::Object {
public:
    using Ptr = std::shared_ptr<Widget>;

    explicit Widget(std::string name);
    virtual ~Widget();

    /// Draw the widget onto the current surface.
    virtual void draw() const = 0;
    const std::string& name() const { return name_; }
    Widget& operator=(const Widget& other);

    /** Human-readable description. */
    std::string describe() const;

    /// Fluent construction of widgets.
    class Builder {
    public:
        Builder& name(std::string value);
        Ptr build() const;
    };

    /// Spacing around the widget.
    struct Margins {
        int top = 0;
        int left = 0;
    };

protected:
    std::string name_;
    Margins margins_;
};

/// A widget holding children.
template <typename Layout>
class Container : public Widget, private Layout {
public:
    void add(Widget::Ptr child) { children_.push_back(std::move(child)); }
    void draw() const override;

private:
    std::vector<Widget::Ptr> children_;
};

/// Clamp a value into [lo, hi].
template <typename T>
T clamp(T value, T lo, T hi) {
    return value < lo ? lo : (value > hi ? hi : value);
}

typedef std::vector<Widget*> WidgetList;

namespace detail {
struct Counter { int n; };
}  // namespace detail

}  // namespace ui
