pragma solidity ^0.4.17;

/*
 * TetherUsdt: the USDT of Cambio's local EVM chains and tests. It reproduces the public interface
 * and the behaviour of Tether's USDT token on Ethereum (`TetherToken`, mainnet
 * 0xdAC17F958D2ee523a2206206994597C13D831ec7, compiled with solc 0.4.18 as that one was), and
 * stands in, with 6 decimals, for Polygon's (0xc2132D05D31c914a87C6611C10748AEb04B58e8F) and
 * Arbitrum's (0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9) USDT (../shared/networks.md, "The token
 * as it is on mainnet"). Written in this repository from that contract's documented behaviour, not
 * copied from its source. Never deployed on a real network: stage settings name the real contracts.
 *
 * What Cambio must cope with, as on mainnet:
 * - `transfer`, `transferFrom` and `approve` return nothing (callers use SafeERC20 or ignore it);
 * - the owner (the issuer) freezes an address (`addBlackList`): it cannot send, through `transfer`
 *   nor as `from` of `transferFrom`, though it still receives; `destroyBlackFunds` erases a frozen
 *   address's balance without a Transfer event;
 * - the owner pauses every transfer (`pause`);
 * - the owner switches on a fee (`setParams`): `basisPointsRate` of each transfer, at most
 *   `maximumFee`, goes to the owner with its own Transfer event, and the recipient gets the rest;
 * - the owner deprecates the contract for an upgraded one (`deprecate`): from then on transfers,
 *   approvals and the balance, allowance and supply reads go to the upgraded contract
 *   (contracts/usdt/UpgradedUsdt.sol), the sender passed along as an argument, and this contract
 *   emits nothing more (the upgraded contract emits the Transfer events);
 * - `issue` and `redeem` change the owner's balance and the supply with no Transfer event;
 * - arithmetic that would overflow or spend more than a balance or an allowance fails with an
 *   invalid opcode (all gas used), a refused control with a revert.
 */

/** Checked arithmetic for solc 0.4, which wraps on overflow. */
library UsdtMath {
    function plus(uint a, uint b) internal pure returns (uint) {
        uint sum = a + b;
        assert(sum >= a);
        return sum;
    }

    function minus(uint a, uint b) internal pure returns (uint) {
        assert(b <= a);
        return a - b;
    }

    function times(uint a, uint b) internal pure returns (uint) {
        if (a == 0) {
            return 0;
        }
        uint product = a * b;
        assert(product / a == b);
        return product;
    }
}

/** What a deprecated TetherUsdt calls on the contract that replaced it (UpgradedUsdt). */
contract UpgradedTokenCalls {
    function transferByLegacy(address from, address to, uint value) public;
    function transferFromByLegacy(address spender, address from, address to, uint value) public;
    function approveByLegacy(address holder, address spender, uint value) public;
    function balanceOf(address who) public view returns (uint);
    function totalSupply() public view returns (uint);
    function allowance(address holder, address spender) public view returns (uint);
}

/**
 * What TetherUsdt and the UpgradedUsdt that replaces it share: the token's fields and events, the
 * issuer's controls and a transfer's fee. Each contract keeps balances and the freeze list in its
 * own way (UpgradedUsdt takes an address's over from the legacy contract when it first writes
 * them), behind the four records at the end.
 */
contract TetherIssuerControls {
    using UsdtMath for uint;

    /** An allowance this large is never spent down. */
    uint public constant MAX_UINT = 2**256 - 1;

    string public name;
    string public symbol;
    uint public decimals;
    /** The issuer: the only account that may use the controls, and the one that collects the fee. */
    address public owner;
    uint public _totalSupply;

    /** The fee on each transfer, in hundredths of a percent, and its most in base units. */
    uint public basisPointsRate = 0;
    uint public maximumFee = 0;

    bool public paused = false;

    event Transfer(address indexed from, address indexed to, uint value);
    event Approval(address indexed owner, address indexed spender, uint value);
    event Issue(uint amount);
    event Redeem(uint amount);
    event Params(uint feeBasisPoints, uint maxFee);
    event DestroyedBlackFunds(address _blackListedUser, uint _balance);
    event AddedBlackList(address _user);
    event RemovedBlackList(address _user);
    event Pause();
    event Unpause();

    modifier onlyOwner() {
        require(msg.sender == owner);
        _;
    }

    modifier whenNotPaused() {
        require(!paused);
        _;
    }

    modifier whenPaused() {
        require(paused);
        _;
    }

    /** The deployer is the first owner. */
    function TetherIssuerControls(string tokenName, string tokenSymbol, uint tokenDecimals) public {
        owner = msg.sender;
        name = tokenName;
        symbol = tokenSymbol;
        decimals = tokenDecimals;
    }

    function getOwner() external view returns (address) {
        return owner;
    }

    /** Tether's Ownable: no event, and the zero address is ignored. */
    function transferOwnership(address newOwner) public onlyOwner {
        if (newOwner != address(0)) {
            owner = newOwner;
        }
    }

    function pause() public onlyOwner whenNotPaused {
        paused = true;
        Pause();
    }

    function unpause() public onlyOwner whenPaused {
        paused = false;
        Unpause();
    }

    /** The fee: below 20 basis points, and at most below 50 whole tokens a transfer, as Tether's. */
    function setParams(uint newBasisPoints, uint newMaxFee) public onlyOwner {
        require(newBasisPoints < 20);
        require(newMaxFee < 50);
        basisPointsRate = newBasisPoints;
        maximumFee = newMaxFee.times(10**decimals);
        Params(basisPointsRate, maximumFee);
    }

    function addBlackList(address evilUser) public onlyOwner {
        setBlackListedRecord(evilUser, true);
        AddedBlackList(evilUser);
    }

    function removeBlackList(address clearedUser) public onlyOwner {
        setBlackListedRecord(clearedUser, false);
        RemovedBlackList(clearedUser);
    }

    /** Erases a frozen address's balance from it and from the supply, with no Transfer event. */
    function destroyBlackFunds(address blackListedUser) public onlyOwner {
        require(blackListedRecord(blackListedUser));
        uint dirtyFunds = balanceRecord(blackListedUser);
        setBalanceRecord(blackListedUser, 0);
        _totalSupply = _totalSupply.minus(dirtyFunds);
        DestroyedBlackFunds(blackListedUser, dirtyFunds);
    }

    /** New tokens on the owner's balance (no Transfer event, as Tether's). */
    function issue(uint amount) public onlyOwner {
        uint held = balanceRecord(owner);
        require(_totalSupply + amount > _totalSupply);
        require(held + amount > held);
        setBalanceRecord(owner, held + amount);
        _totalSupply += amount;
        Issue(amount);
    }

    /** Tokens taken from the owner's balance out of the supply (no Transfer event). */
    function redeem(uint amount) public onlyOwner {
        uint held = balanceRecord(owner);
        require(_totalSupply >= amount);
        require(held >= amount);
        _totalSupply -= amount;
        setBalanceRecord(owner, held - amount);
        Redeem(amount);
    }

    function feeOn(uint value) internal view returns (uint) {
        uint fee = value.times(basisPointsRate) / 10000;
        if (fee > maximumFee) {
            fee = maximumFee;
        }
        return fee;
    }

    /** `value` leaves `from`; the fee goes to the owner and the rest to `to`, each with its event. */
    function move(address from, address to, uint value) internal {
        uint fee = feeOn(value);
        uint delivered = value.minus(fee);
        setBalanceRecord(from, balanceRecord(from).minus(value));
        setBalanceRecord(to, balanceRecord(to).plus(delivered));
        if (fee > 0) {
            setBalanceRecord(owner, balanceRecord(owner).plus(fee));
            Transfer(from, owner, fee);
        }
        Transfer(from, to, delivered);
    }

    /** An address's balance and frozen status as this contract keeps them, read and written. */
    function balanceRecord(address who) internal returns (uint);
    function setBalanceRecord(address who, uint value) internal;
    function blackListedRecord(address who) internal returns (bool);
    function setBlackListedRecord(address who, bool value) internal;
}

contract TetherUsdt is TetherIssuerControls {
    using UsdtMath for uint;

    mapping(address => uint) public balances;
    mapping(address => mapping(address => uint)) public allowed;
    mapping(address => bool) public isBlackListed;

    bool public deprecated;
    address public upgradedAddress;

    event Deprecate(address newAddress);

    /** `initialSupply` in base units, held by the deployer, who is the first owner. */
    function TetherUsdt(uint initialSupply, string tokenName, string tokenSymbol, uint tokenDecimals) TetherIssuerControls(tokenName, tokenSymbol, tokenDecimals) public {
        _totalSupply = initialSupply;
        balances[msg.sender] = initialSupply;
        deprecated = false;
    }

    // ---- ERC-20, with nothing returned by the calls that move or approve ----

    function transfer(address to, uint value) public whenNotPaused {
        require(!isBlackListed[msg.sender]);
        if (deprecated) {
            UpgradedTokenCalls(upgradedAddress).transferByLegacy(msg.sender, to, value);
        } else {
            requireArguments(2);
            move(msg.sender, to, value);
        }
    }

    function transferFrom(address from, address to, uint value) public whenNotPaused {
        require(!isBlackListed[from]);
        if (deprecated) {
            UpgradedTokenCalls(upgradedAddress).transferFromByLegacy(msg.sender, from, to, value);
        } else {
            requireArguments(3);
            uint allowance_ = allowed[from][msg.sender];
            if (allowance_ < MAX_UINT) {
                allowed[from][msg.sender] = allowance_.minus(value);
            }
            move(from, to, value);
        }
    }

    /** As Tether's: an allowance goes to zero before it can be set to another amount. Not paused. */
    function approve(address spender, uint value) public {
        requireArguments(2);
        if (deprecated) {
            UpgradedTokenCalls(upgradedAddress).approveByLegacy(msg.sender, spender, value);
        } else {
            require(value == 0 || allowed[msg.sender][spender] == 0);
            allowed[msg.sender][spender] = value;
            Approval(msg.sender, spender, value);
        }
    }

    function balanceOf(address who) public view returns (uint) {
        if (deprecated) {
            return UpgradedTokenCalls(upgradedAddress).balanceOf(who);
        }
        return balances[who];
    }

    function allowance(address holder, address spender) public view returns (uint) {
        if (deprecated) {
            return UpgradedTokenCalls(upgradedAddress).allowance(holder, spender);
        }
        return allowed[holder][spender];
    }

    function totalSupply() public view returns (uint) {
        if (deprecated) {
            return UpgradedTokenCalls(upgradedAddress).totalSupply();
        }
        return _totalSupply;
    }

    // ---- The deprecation, and the freeze list read (the other controls: TetherIssuerControls) ----

    function getBlackListStatus(address maker) external view returns (bool) {
        return isBlackListed[maker];
    }

    /** From now on the token is `upgraded`'s: this contract forwards to it. */
    function deprecate(address upgraded) public onlyOwner {
        deprecated = true;
        upgradedAddress = upgraded;
        Deprecate(upgraded);
    }

    // ---- Inside ----

    /** Tether's guard against a short address: the call data must hold `words` arguments. */
    function requireArguments(uint words) internal pure {
        require(msg.data.length >= words * 32 + 4);
    }

    function balanceRecord(address who) internal returns (uint) {
        return balances[who];
    }

    function setBalanceRecord(address who, uint value) internal {
        balances[who] = value;
    }

    function blackListedRecord(address who) internal returns (bool) {
        return isBlackListed[who];
    }

    function setBlackListedRecord(address who, bool value) internal {
        isBlackListed[who] = value;
    }
}
