# frozen_string_literal: true

require "json"
require 'set'
require_relative "library/book"

# Top-level helper, outside any class.
def slugify(text)
  text.downcase.gsub(/\W+/, "-")
end

# A small lending library.
module Library
  VERSION = "2.1.0"
  DEFAULT_LOAN_DAYS = 14

  # Raised when a book is not available.
  class NotAvailable < StandardError; end

  # The catalog of books.
  class Catalog
    include Enumerable
    extend Forwardable

    attr_reader :books
    def_delegators :@books, :size, :empty?

    # Build a catalog from a JSON file.
    def self.load(path)
      data = JSON.parse(File.read(path))
      new(data.map { |row| Book.from_h(row) })
    end

    def initialize(books = [])
      @books = books
      @index = Set.new
    end

    # Yield each book.
    def each(&block)
      @books.each(&block)
    end

    def find_by_isbn(isbn)
      @books.find { |b| b.isbn == isbn } or raise NotAvailable, isbn
    end

    def <<(book)
      @books.push(book)
      self
    end

    class << self
      # An empty catalog.
      def empty
        new([])
      end
    end

    private

    def reindex!
      @index = Set.new(@books.map(&:isbn))
    end
  end

  module Loans
    class Loan < Struct.new(:book, :member, :due)
      def overdue?(today = Date.today)
        today > due
      end
    end
  end
end

class Library::Member
  def borrow(catalog, isbn)
    book = catalog.find_by_isbn(isbn)
    Library::Loans::Loan.new(book, self, Date.today + Library::DEFAULT_LOAN_DAYS)
  end
end
