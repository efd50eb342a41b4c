pragma solidity ^0.5.16;

/*
 * Bep20Usdt: the USDT of Cambio's local BNB Smart Chain node and tests. It reproduces the public
 * interface and the behaviour of BSC's USDT (`BEP20USDT`, mainnet
 * 0x55d398326f99059fF775485246999027B3197955, compiled with solc 0.5.16 as that one was):
 * a BEP-20 token with 18 decimals, an owner who may mint and burn, `transfer`, `transferFrom` and
 * `approve` that return true, and no freeze list, no pause, no fee and no deprecation
 * (../shared/networks.md, "The token as it is on mainnet"). Written in this repository from that
 * contract's documented behaviour, not copied from its source. Never deployed on a real network.
 */
contract Bep20Usdt {
    // Storage in the mainnet contract's order (its Ownable's owner, then the token's fields), so a
    // tool that reads or writes a slot directly (anvil_setStorageAt) finds the same field:
    // the balances are the mapping at slot 1.
    address private _owner;
    mapping(address => uint256) private _balances;
    mapping(address => mapping(address => uint256)) private _allowances;
    uint256 private _totalSupply;
    uint8 private _decimals;
    string private _symbol;
    string private _name;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    modifier onlyOwner() {
        require(msg.sender == _owner, "Ownable: caller is not the owner");
        _;
    }

    /** No supply at deployment: the owner mints what the local runtime hands out. */
    constructor() public {
        _name = "Tether USD";
        _symbol = "USDT";
        _decimals = 18;
        _owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    function name() external view returns (string memory) {
        return _name;
    }

    function symbol() external view returns (string memory) {
        return _symbol;
    }

    function decimals() external view returns (uint8) {
        return _decimals;
    }

    function totalSupply() external view returns (uint256) {
        return _totalSupply;
    }

    function balanceOf(address account) external view returns (uint256) {
        return _balances[account];
    }

    function allowance(address holder, address spender) external view returns (uint256) {
        return _allowances[holder][spender];
    }

    function transfer(address recipient, uint256 amount) external returns (bool) {
        _move(msg.sender, recipient, amount);
        return true;
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        _approve(msg.sender, spender, amount);
        return true;
    }

    function transferFrom(address sender, address recipient, uint256 amount) external returns (bool) {
        _move(sender, recipient, amount);
        uint256 allowed = _allowances[sender][msg.sender];
        require(allowed >= amount, "BEP20: transfer amount exceeds allowance");
        _approve(sender, msg.sender, allowed - amount);
        return true;
    }

    function increaseAllowance(address spender, uint256 addedValue) public returns (bool) {
        uint256 raised = _allowances[msg.sender][spender] + addedValue;
        require(raised >= addedValue, "SafeMath: addition overflow");
        _approve(msg.sender, spender, raised);
        return true;
    }

    function decreaseAllowance(address spender, uint256 subtractedValue) public returns (bool) {
        uint256 allowed = _allowances[msg.sender][spender];
        require(allowed >= subtractedValue, "BEP20: decreased allowance below zero");
        _approve(msg.sender, spender, allowed - subtractedValue);
        return true;
    }

    // ---- The owner ----

    function owner() public view returns (address) {
        return _owner;
    }

    function getOwner() external view returns (address) {
        return _owner;
    }

    function transferOwnership(address newOwner) public onlyOwner {
        require(newOwner != address(0), "Ownable: new owner is the zero address");
        emit OwnershipTransferred(_owner, newOwner);
        _owner = newOwner;
    }

    function renounceOwnership() public onlyOwner {
        emit OwnershipTransferred(_owner, address(0));
        _owner = address(0);
    }

    /** New tokens on the owner's balance, with a Transfer event from the zero address. */
    function mint(uint256 amount) public onlyOwner returns (bool) {
        require(_totalSupply + amount >= _totalSupply, "SafeMath: addition overflow");
        _totalSupply += amount;
        _balances[msg.sender] += amount;
        emit Transfer(address(0), msg.sender, amount);
        return true;
    }

    /** Tokens taken from the owner's balance out of the supply, with a Transfer event to the zero address. */
    function burn(uint256 amount) public onlyOwner returns (bool) {
        require(_balances[msg.sender] >= amount, "BEP20: burn amount exceeds balance");
        _balances[msg.sender] -= amount;
        _totalSupply -= amount;
        emit Transfer(msg.sender, address(0), amount);
        return true;
    }

    // ---- Inside ----

    function _move(address sender, address recipient, uint256 amount) internal {
        require(sender != address(0), "BEP20: transfer from the zero address");
        require(recipient != address(0), "BEP20: transfer to the zero address");
        require(_balances[sender] >= amount, "BEP20: transfer amount exceeds balance");
        _balances[sender] -= amount;
        _balances[recipient] += amount;
        emit Transfer(sender, recipient, amount);
    }

    function _approve(address holder, address spender, uint256 amount) internal {
        require(holder != address(0), "BEP20: approve from the zero address");
        require(spender != address(0), "BEP20: approve to the zero address");
        _allowances[holder][spender] = amount;
        emit Approval(holder, spender, amount);
    }
}
