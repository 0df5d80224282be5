# Homebrew formula for the `ipdata` command-line tool, kept in the repository it builds from:
#
#   brew tap ipdata/swift https://github.com/ipdata/swift
#   brew install ipdata
#
# It builds the CLI package (CLI/) at the release's tag with the Swift of Xcode, and installs
# the binary, its manual page (`ipdata man`) and its bash, zsh and fish completions
# (`ipdata completion SHELL`). On Linux, install the release's binary instead (see README).
# The tag is the version README.md releases: scripts/tests/formula-tests.sh checks it.
class Ipdata < Formula
  desc "IP geolocation, network, company and threat data from the ipdata.co API"
  homepage "https://github.com/ipdata/swift"
  url "https://github.com/ipdata/swift.git", tag: "v1.1.0"
  license "MIT"
  head "https://github.com/ipdata/swift.git", branch: "main"

  depends_on xcode: ["16.0", :build]
  depends_on :macos

  def install
    system "swift", "build", "--disable-sandbox", "--configuration", "release",
           "--package-path", "CLI", "--product", "ipdata"
    bin.install "CLI/.build/release/ipdata"
    (man1/"ipdata.1").write Utils.safe_popen_read(bin/"ipdata", "man")
    generate_completions_from_executable(bin/"ipdata", "completion", shell_parameter_format: :arg)
  end

  test do
    assert_match "ipdata #{version}", shell_output("#{bin}/ipdata --version")
    # The sandbox answers from built-in sample data: no key, no network.
    assert_equal "United States\n",
                 shell_output("#{bin}/ipdata --sandbox --no-cache 8.8.8.8 --field country_name")
  end
end
