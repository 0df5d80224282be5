#!/usr/bin/env bash
# Tests for Formula/ipdata.rb, the Homebrew formula kept in the repository, where no brew is:
# its Ruby syntax (`ruby -c`), and its shape, read by loading it with a stand-in for
# Homebrew's Formula class that records what it declares and what its install and test blocks
# run. Checks that it builds from the tag of the version README.md releases, the CLI package,
# and that its test needs no key and no network.
#
#   bash scripts/tests/formula-tests.sh [path/to/ipdata.rb]
#
# Needs bash and ruby (Debian: apt-get install ruby); without ruby, says so and fails.
# Prints `ok - NAME` / `not ok - NAME` per check and ends with `N passed, M failed`.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
formula=${1:-$root/Formula/ipdata.rb}
[[ -f $formula ]] || {
    echo "formula-tests: no such file: $formula" >&2
    exit 1
}
command -v ruby >/dev/null 2>&1 || {
    echo "formula-tests: ruby not found (apt-get install ruby)" >&2
    exit 1
}
ruby -c "$formula" >/dev/null || {
    echo "not ok - the formula is valid Ruby"
    exit 1
}
echo "ok - the formula is valid Ruby"
version=$(bash "$root/scripts/release.sh" --readme "$root/README.md" --print-version)
license=$(head -n 1 "$root/LICENSE")

exec ruby - "$formula" "$version" "$license" <<'RUBY'
path, version, license_line = ARGV
$results = []

def check(name, condition, detail = nil)
  $results << !!condition
  puts((condition ? "ok - " : "not ok - ") + name)
  puts "#   #{detail}" if !condition && detail
end

# Stand-ins for what the formula uses of Homebrew: what it declares, and what its blocks run.
class Recorder
  attr_reader :calls
  def initialize(name, calls) = (@name, @calls = name, calls)
  def /(other) = Recorder.new("#{@name}/#{other}", @calls)
  def to_s = @name
  def install(*paths) = @calls << [:install, @name, *paths.map(&:to_s)]
  def write(text) = @calls << [:write, @name, text]
end

module Utils
  def self.safe_popen_read(*command) = "popen: #{command.map(&:to_s).join(' ')}"
end

class Formula
  class << self
    attr_reader :declared
    def inherited(subclass)
      super
      subclass.instance_variable_set(:@declared, Hash.new { |h, k| h[k] = [] })
    end
    %i[desc homepage url license head depends_on uses_from_macos sha256].each do |name|
      define_method(name) { |*args, **options| @declared[name] << [args, options] }
    end
    def test(&block) = @declared[:test] << block
  end

  attr_reader :calls
  def initialize = @calls = []
  def bin = Recorder.new("bin", @calls)
  def man1 = Recorder.new("man1", @calls)
  def version = "VERSION"
  def system(*command) = @calls << [:system, *command.map(&:to_s)]
  def shell_output(command, _status = 0) = (@calls << [:shell_output, command]; "ipdata VERSION\n")
  def assert_match(*) = nil
  def assert_equal(*) = nil
  def generate_completions_from_executable(*args, **options)
    @calls << [:completions, *args.map(&:to_s), options]
  end
end

load path
formula = Object.const_defined?(:Ipdata) ? Ipdata : nil
check("the formula defines class Ipdata < Formula", formula && formula < Formula)
exit 1 unless formula
d = formula.declared

repository = "https://github.com/ipdata/swift.git"
check("desc and homepage are set", d[:desc].size == 1 && d[:homepage] == [[["https://github.com/ipdata/swift"], {}]],
      d.slice(:desc, :homepage))
check("url is the repository at tag v#{version}, the version README.md releases",
      d[:url] == [[[repository], { tag: "v#{version}" }]], d[:url].inspect)
check("head is the repository's main branch", d[:head] == [[[repository], { branch: "main" }]], d[:head].inspect)
check("license is the LICENSE file's (#{license_line})",
      d[:license].size == 1 && license_line == "#{d[:license][0][0][0]} License", d[:license].inspect)
check("it needs Xcode 16 to build (the CLI package's swift-tools-version 6.0), on macOS",
      d[:depends_on].include?([[{ xcode: ["16.0", :build] }], {}]) || d[:depends_on].include?([[], { xcode: ["16.0", :build] }]),
      d[:depends_on].inspect)

install = formula.new
install.install
build = install.calls.find { |c| c[0] == :system && c[1] == "swift" }
check("install runs swift build of the CLI package's ipdata, release, outside SwiftPM's sandbox",
      build && build[1..] == %w[swift build --disable-sandbox --configuration release --package-path CLI --product ipdata],
      install.calls.inspect)
check("install puts CLI/.build/release/ipdata into bin",
      install.calls.include?([:install, "bin", "CLI/.build/release/ipdata"]), install.calls.inspect)
check("install writes the manual page from ipdata man",
      install.calls.include?([:write, "man1/ipdata.1", "popen: bin/ipdata man"]), install.calls.inspect)
check("install writes the completions from ipdata completion SHELL",
      install.calls.include?([:completions, "bin/ipdata", "completion", { shell_parameter_format: :arg }]),
      install.calls.inspect)

tester = formula.new
d[:test].each { |block| tester.instance_eval(&block) }
commands = tester.calls.select { |c| c[0] == :shell_output }.map { |c| c[1] }
check("the test runs ipdata --version and a sandbox lookup (no key, no network)",
      commands.include?("bin/ipdata --version") && commands.any? { |c| c.include?("--sandbox") && c.start_with?("bin/ipdata ") },
      commands.inspect)

passed, failed = $results.count(true), $results.count(false)
puts "#{passed + 1} passed, #{failed} failed"
exit(failed.zero? ? 0 : 1)
RUBY
