#include "widget.hpp"

#include <algorithm>
#include <iostream>

namespace ui {

namespace {
int instances = 0;
}

Widget::Widget(std::string name) : core::Object(), name_(std::move(name)) {
    ++instances;
}

Widget::~Widget() { --instances; }

// Copy-assign the name only.
Widget& Widget::operator=(const Widget& other) {
    name_ = other.name_;
    return *this;
}

/// Draw every child in order.
template <typename Layout>
void Container<Layout>::draw() const {
    for (const auto& child : children_) {
        child->draw();
    }
    std::for_each(children_.begin(), children_.end(), [](const Widget::Ptr& w) { w->draw(); });
}

}  // namespace ui

namespace app::screens {

class Label final : public ui::Widget {
public:
    Label() : ui::Widget("label") {}
    void draw() const override { std::cout << name() << '\n'; }
};

}  // namespace app::screens

// Defined outside the namespace, fully qualified.
std::string ui::Widget::describe() const {
    return "widget " + name_;
}

ui::Widget::Builder& ui::Widget::Builder::name(std::string value) {
    pending_name_ = std::move(value);
    return *this;
}

int main(int argc, char** argv) {
    auto label = std::make_unique<app::screens::Label>();
    ui::Widget* raw = new app::screens::Label();
    label->draw();
    delete raw;
    return ui::clamp<int>(argc, 0, 1);
}
