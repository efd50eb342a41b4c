pragma solidity ^0.4.17;

import "./TetherUsdt.sol";

/*
 * UpgradedUsdt: the contract a local TetherUsdt is deprecated for (`deprecate(upgraded)`), as
 * Tether's `TetherToken` (mainnet 0xdAC17F958D2ee523a2206206994597C13D831ec7 on Ethereum) is
 * designed to be replaced: it takes the legacy contract's forwarded calls (`transferByLegacy`,
 * `transferFromByLegacy`, `approveByLegacy`, accepted from the legacy contract alone, the sender
 * given as an argument) and its own, and holds the same issuer controls (freeze, pause, fee,
 * issue and redeem; it is not itself deprecated again). Tether has published no such contract for
 * its USDT: this one is written in this repository for Cambio's local chains and tests, so that a
 * deprecation can be rehearsed, never deployed on a real network.
 *
 * Balances migrate lazily: an address's balance, frozen status and allowances are the legacy
 * contract's stored ones (its public `balances`, `isBlackListed` and `allowed`, read raw, not
 * through its forwarding reads) until this contract first writes them, and its own from then on.
 * The supply and the fee parameters are copied when this contract is deployed; it starts unpaused.
 * So after `deprecate`, a payment through either contract moves the same balances and emits its
 * Transfer event here. The legacy contract's own storage must not change once it forwards (the
 * issuer issues, redeems and freezes here from then on); its own freeze list and pause still stop
 * a payment made through it, as Tether's do.
 */
contract UpgradedUsdt is TetherIssuerControls {
    using UsdtMath for uint;

    /** The deprecated contract whose calls this one takes and whose balances it continues. */
    address public legacyContract;

    /** An address's own entries, valid once `migrated` (allowances: `allowanceMigrated`). */
    mapping(address => bool) private migrated;
    mapping(address => uint) private ownBalances;
    mapping(address => bool) private ownBlackListed;
    mapping(address => mapping(address => bool)) private allowanceMigrated;
    mapping(address => mapping(address => uint)) private ownAllowed;

    modifier onlyLegacy() {
        require(msg.sender == legacyContract);
        _;
    }

    /** An address's own records are read and written once taken over from the legacy contract. */
    modifier takenOver(address who) {
        migrate(who);
        _;
    }

    /** Deployed by the issuer, who owns it, before the legacy contract is pointed at it. */
    function UpgradedUsdt(address legacy, string tokenName, string tokenSymbol, uint tokenDecimals) TetherIssuerControls(tokenName, tokenSymbol, tokenDecimals) public {
        legacyContract = legacy;
        TetherUsdt previous = TetherUsdt(legacy);
        _totalSupply = previous._totalSupply();
        basisPointsRate = previous.basisPointsRate();
        maximumFee = previous.maximumFee();
    }

    // ---- ERC-20 as Tether's: nothing returned by the calls that move or approve ----

    function transfer(address to, uint value) public whenNotPaused {
        require(!isBlackListed(msg.sender));
        move(msg.sender, to, value);
    }

    function transferFrom(address from, address to, uint value) public whenNotPaused {
        require(!isBlackListed(from));
        spendAllowance(from, msg.sender, value);
        move(from, to, value);
    }

    function approve(address spender, uint value) public {
        setAllowance(msg.sender, spender, value);
    }

    function balanceOf(address who) public view returns (uint) {
        return migrated[who] ? ownBalances[who] : TetherUsdt(legacyContract).balances(who);
    }

    /** The same reading as the legacy contract's public `balances` mapping. */
    function balances(address who) public view returns (uint) {
        return balanceOf(who);
    }

    function allowance(address holder, address spender) public view returns (uint) {
        return allowanceMigrated[holder][spender] ? ownAllowed[holder][spender] : TetherUsdt(legacyContract).allowed(holder, spender);
    }

    function totalSupply() public view returns (uint) {
        return _totalSupply;
    }

    // ---- What the deprecated contract forwards: its msg.sender comes as an argument ----

    function transferByLegacy(address from, address to, uint value) public onlyLegacy whenNotPaused {
        require(!isBlackListed(from));
        move(from, to, value);
    }

    function transferFromByLegacy(address spender, address from, address to, uint value) public onlyLegacy whenNotPaused {
        require(!isBlackListed(from));
        spendAllowance(from, spender, value);
        move(from, to, value);
    }

    function approveByLegacy(address holder, address spender, uint value) public onlyLegacy {
        setAllowance(holder, spender, value);
    }

    // ---- The freeze list read (the issuer's controls: TetherIssuerControls) ----

    function isBlackListed(address who) public view returns (bool) {
        return migrated[who] ? ownBlackListed[who] : TetherUsdt(legacyContract).isBlackListed(who);
    }

    function getBlackListStatus(address maker) external view returns (bool) {
        return isBlackListed(maker);
    }

    // ---- Inside ----

    /** Takes over `who`'s balance and frozen status from the legacy contract, once. */
    function migrate(address who) internal {
        if (!migrated[who]) {
            TetherUsdt previous = TetherUsdt(legacyContract);
            ownBalances[who] = previous.balances(who);
            ownBlackListed[who] = previous.isBlackListed(who);
            migrated[who] = true;
        }
    }

    function setAllowance(address holder, address spender, uint value) internal {
        require(value == 0 || allowance(holder, spender) == 0);
        allowanceMigrated[holder][spender] = true;
        ownAllowed[holder][spender] = value;
        Approval(holder, spender, value);
    }

    function spendAllowance(address holder, address spender, uint value) internal {
        uint allowance_ = allowance(holder, spender);
        if (allowance_ < MAX_UINT) {
            allowanceMigrated[holder][spender] = true;
            ownAllowed[holder][spender] = allowance_.minus(value);
        }
    }

    function balanceRecord(address who) internal takenOver(who) returns (uint) {
        return ownBalances[who];
    }

    function setBalanceRecord(address who, uint value) internal takenOver(who) {
        ownBalances[who] = value;
    }

    function blackListedRecord(address who) internal takenOver(who) returns (bool) {
        return ownBlackListed[who];
    }

    function setBlackListedRecord(address who, bool value) internal takenOver(who) {
        ownBlackListed[who] = value;
    }
}
